#!/usr/bin/env python3
"""The floor of writing a site's output: the same folders and files made again, nothing drawn.

Usage: bench/tree_floor.py REFERENCE TARGET

REFERENCE is a finished output (gramgen's `public/` or Hugo's). Every file's bytes are read into
memory first (not timed); then TARGET is deleted (not timed, as a benchmark build deletes its
output first) and the timed part makes every folder, writes every file with one link, and makes a
hard link for every file that has more than one (gramgen links its media from the image cache;
the link here points at the reference's file). Prints `seconds folders files links`.

What it measures is what the file system charges for the output's shape alone: the number of
folders and files and their bytes, right after as many were deleted. A build cannot take less.
"""
import os, shutil, sys, time


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    reference, target = (os.path.abspath(p) for p in sys.argv[1:])
    folders, files, links = [], [], []
    for root, dirs, names in os.walk(reference):
        relative = os.path.relpath(root, reference)
        folders.extend(os.path.join(relative, d) for d in dirs)
        for name in names:
            path = os.path.join(root, name)
            info = os.lstat(path)
            if info.st_nlink > 1:
                links.append((path, os.path.join(relative, name)))
            else:
                with open(path, "rb") as f:
                    files.append((os.path.join(relative, name), f.read()))
    shutil.rmtree(target, ignore_errors=True)
    start = time.monotonic()
    os.mkdir(target)
    for folder in folders:
        os.mkdir(os.path.join(target, folder))
    for relative, data in files:
        with open(os.path.join(target, relative), "wb") as f:
            f.write(data)
    for source, relative in links:
        os.link(source, os.path.join(target, relative))
    print(f"{time.monotonic() - start:.2f} {len(folders)} {len(files)} {len(links)}")


if __name__ == "__main__":
    main()
