#!/usr/bin/env bash
# A first build on a cold cache: what a user sees after a reboot, or once a
# tree's directories, inodes and file pages left the kernel's caches. A
# container usually cannot drop caches (/proc/sys/vm/drop_caches is
# read-only), so this copies the tree onto an ext4 image and mounts it
# through a loop device with direct I/O on the image: unmounted and mounted
# again, nothing of it is cached anywhere, and each run starts cold.
#
#   sudo benchmarks/cold.sh TREE                 # 3 cold runs of each row
#   sudo RUNS=5 WALK_ONLY=1 benchmarks/cold.sh /tmp/s100k
#
# TREE is any tree (a checkout, a git archive, benchmarks/synth's output);
# its .wikitoolkit is not copied. Rows, each run on a freshly mounted image:
#   walk            `build --full --verbose`'s walk phase (directories read,
#                   every file stat'ed): the time the build waited for the
#                   walk; a large tree's first build parses, writes and
#                   publishes its first batch meanwhile (graph/firstwalk.go)
#   full build      its wall time and its parse phase (files read cold)
#   first answer    a server started with no index → its first (partial)
#                   answer (benchmarks/mcpbench.py noindex)
# Needs root (losetup, mount), mkfs.ext4, python3, /usr/bin/time and as much
# free space in TMPDIR as three times the tree. Not run in CI.
set -euo pipefail

tree=${1:-}
RUNS=${RUNS:-3}
WALK_ONLY=${WALK_ONLY:-}
unset WIKITOOLKIT_INDEX

die() { echo "cold.sh: $*" >&2; exit 1; }
say() { echo "== $*" >&2; }
[[ -n $tree && -d $tree ]] || die "usage: benchmarks/cold.sh TREE (a directory; got '${tree}')"
[[ $(id -u) == 0 ]] || die "losetup and mount need root: run it as root (sudo benchmarks/cold.sh $tree)"
for c in go python3 mkfs.ext4 losetup mount /usr/bin/time; do
	command -v "$c" >/dev/null || die "$c is needed (install it, or put it on PATH)"
done
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive number (got '$RUNS')"

bench=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$bench/.." && pwd)
tree=$(cd "$tree" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/wikitoolkit-cold.XXXXXX")
img=$work/tree.ext4
mnt=$work/mnt
dev=
cleanup() {
	if mountpoint -q "$mnt" 2>/dev/null; then umount "$mnt" || true; fi
	if [[ -n $dev ]]; then losetup -d "$dev" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

say "building wikitoolkit"
(cd "$repo" && go build -o "$work/wikitoolkit" .)
bin=$work/wikitoolkit

# The image: room for the tree, its index and ext4's inode tables (one inode
# per file and directory, with a margin).
bytes=$(du -sb --exclude=.wikitoolkit "$tree" | cut -f1)
entries=$(find "$tree" -path "$tree/.wikitoolkit" -prune -o -print | wc -l)
size=$(( (bytes * 3 + (1 << 30)) >> 20 ))
say "an ext4 image of $size MB for $entries entries ($((bytes >> 20)) MB on disk)"
truncate -s "${size}M" "$img"
mkfs.ext4 -q -F -N $((entries * 2 + 10000)) "$img"
mkdir -p "$mnt"

# remount: unmount the image, drop its pages from the cache of the
# filesystem under it, mount it again through a loop device with direct I/O.
remount() {
	if mountpoint -q "$mnt"; then umount "$mnt"; fi
	if [[ -n $dev ]]; then losetup -d "$dev"; dev=; fi
	python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY); os.fsync(fd)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED); os.close(fd)' "$img"
	dev=$(losetup --direct-io=on -f --show "$img")
	mount "$dev" "$mnt"
}
remount
say "copying the tree"
tar -C "$(dirname "$tree")" --exclude="./$(basename "$tree")/.wikitoolkit" -cf - "$(basename "$tree")" | tar -C "$mnt" -xf -
copy=$mnt/$(basename "$tree")

# phase NAME: the seconds of NAME on build --verbose's "phases:" line
# ("walk 7.14 s" or "walk 19 ms").
phase() { sed -n "s/.*[:,] $1 \([0-9.]*\) \(m\?s\)\b.*/\1 \2/p" | awk '{printf "%.3f\n", $2 == "ms" ? $1 / 1000 : $1}'; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END{print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
walks=() builds=() parses=() firsts=()
for ((i = 1; i <= RUNS; i++)); do
	rm -rf "$copy/.wikitoolkit"
	remount
	say "cold full build $i of $RUNS"
	out=$(cd "$copy" && /usr/bin/time -f 'wall %e' "$bin" build --full --verbose 2>&1 | grep -v '^  skip')
	walks+=("$(phase walk <<<"$out")")
	parses+=("$(phase parse <<<"$out")")
	builds+=("$(sed -n 's/^wall \([0-9.]*\)$/\1/p' <<<"$out")")
	echo "$out" | tail -n 3 >&2
	[[ -n $WALK_ONLY ]] && continue
	rm -rf "$copy/.wikitoolkit"
	remount
	say "server on no index, cold, $i of $RUNS"
	firsts+=("$(python3 "$bench/mcpbench.py" "$bin" "$copy" noindex | python3 -c 'import json, sys; print("%.2f" % (json.load(sys.stdin)["first_ms"] / 1000))')")
done

echo "| cold cache, $(basename "$tree") ($entries entries), $(git -C "$repo" describe --always --dirty) | median of $RUNS | runs |"
echo "| --- | --- | --- |"
echo "| walk | $(median "${walks[@]}") s | ${walks[*]} |"
echo "| full build (its parse phase) | $(median "${builds[@]}") s ($(median "${parses[@]}") s) | ${builds[*]} |"
if [[ -z $WALK_ONLY ]]; then
	echo "| server on no index → first answer | $(median "${firsts[@]}") s | ${firsts[*]} |"
fi
