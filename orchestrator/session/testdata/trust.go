// A tiny program for the cache folder's trust test: its bench image is
// restored from a forged archive, and from a signed one.
package main

func main() { println("trust") }
