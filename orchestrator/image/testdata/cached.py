# A tiny program for the cache folder's test: its bench image is restored
# from an archive instead of built.
print("cached")
