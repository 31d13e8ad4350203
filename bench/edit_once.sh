#!/bin/sh
# One edit of a kind, then one `gramgen build`: the unit of a paired A/B measurement of edit
# builds (run it alternately for two binaries, each on its own copy of the site, since each
# binary's records are its own, and time each whole run, e.g. with /usr/bin/time).
#
#   bench/edit_once.sh BINARY SITE caption|hashtag|profile|post [--edit-only]
#
# --edit-only makes the edit and stops, for a caller that times the build alone, as run.sh does
# (bench/edit_pairs.sh): the edit itself (a few small processes) takes about 11 ms here.
#
# SITE is a copy of the `run.sh --text 10000` corpus (built once with BINARY first). Each run's
# edit differs (a timestamp): a caption line, a new hashtag, a bio line, or a new post with a
# photo copied from the first post. A text edit replaces the line the last run of its kind added,
# so the edited file stays the corpus's own plus one line however many runs there are. Edited
# files are written anew and renamed into place.
set -eu
binary=$1 site=$2 kind=$3 only=${4:-}
user=$(ls "$site/content/users" | sort | head -1)
first=$(ls "$site/content/users/$user/posts" | sort | head -1)
post=$site/content/users/$user/posts/$first/post.md
stamp=$(date +%s%N)
rewrite() { # file, pattern of the line the last run added, the new line
  printf '%s\n%s\n' "$(grep -v "$2" "$1")" "$3" > "$1.new" && mv "$1.new" "$1"; }
case $kind in
  caption) rewrite "$post" '^Edited [0-9]*$' "Edited $stamp" ;;
  hashtag) rewrite "$post" '^#t[0-9]*$' "#t$stamp" ;;
  profile) rewrite "$site/content/users/$user/profile.md" '^Bio [0-9]*$' "Bio $stamp" ;;
  post) folder=$site/content/users/$user/posts/2030-02-01-n$stamp
        mkdir -p "$folder"
        cp "$(ls -d "$site/content/users/$user/posts/$first"/* | grep -v post.md | head -1)" "$folder/1.jpg"
        printf -- '---\ndate: 2030-02-01T10:00:00Z\n---\nNew %s\n' "$stamp" > "$folder/post.md" ;;
  *) echo "kind: caption, hashtag, profile or post" >&2; exit 2 ;;
esac
[ "$only" = --edit-only ] && exit 0
exec "$binary" build --site "$site" --quiet
