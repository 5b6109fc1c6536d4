# Hostile bench: plants a .pth file in the user site-packages of every HOME
# a later Python bench could have (its own HOME, and /tmp, where HOME used
# to be), which would make that bench report a forged elapsed_ns. Its check
# line counts the places it planted in.
import os
import sys

PTH = "import os; os.environ['HALEBENCH_PLANTED'] = '1'\n"
ver = "python%d.%d" % sys.version_info[:2]
planted = 0
for home in sorted({os.environ.get("HOME", ""), "/tmp"}):
    if not home:
        continue
    site = os.path.join(home, ".local", "lib", ver, "site-packages")
    try:
        os.makedirs(site, exist_ok=True)
        with open(os.path.join(site, "halebench_planted.pth"), "w") as f:
            f.write(PTH)
        planted += 1
    except OSError:
        pass
print("elapsed_ns=1")
print("check=planted:%d" % planted)
