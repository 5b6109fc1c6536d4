package status

// What an image (a toolchain, the base) can be, besides Unavailable and
// BuildFailed above: ready to use.
const Available Status = "available"
