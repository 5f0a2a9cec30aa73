#!/bin/sh
# tilescope --list-scenarios: the names in a column as wide as the longest name, every title
# starting two spaces after it, for the presets and for a folder with a 43-character name.
# Usage: list_scenarios_check.sh TILESCOPE SCRATCH_DIR
set -u
tilescope=$1 scratch=$2
fail() { echo "list_scenarios_check: $*"; exit 1; }
check() {   # check LISTING: every title starts at the same column, after the longest name + 2
  longest=$(printf '%s\n' "$1" | awk '{ if (length($1) > m) m = length($1) } END { print m }')
  printf '%s\n' "$1" | awk -v w="$longest" '
    { pad = substr($0, length($1) + 1, w + 2 - length($1)); title = substr($0, w + 3)
      if (pad !~ /^  +$/ || title == "" || title ~ /^ /) { print "misaligned: " $0; bad = 1 } }
    END { exit bad }' || fail "titles do not start at column $((longest + 3))"
}
listing=$("$tilescope" --list-scenarios) || fail "exit status $?"
[ "$(printf '%s\n' "$listing" | wc -l)" -ge 10 ] || fail "fewer than 10 presets listed"
check "$listing"
# The longest name is followed by exactly two spaces and its title.
longest_name=$(printf '%s\n' "$listing" | awk '{ if (length($1) > length(m)) m = $1 } END { print m }')
printf '%s\n' "$listing" | grep -q "^$longest_name  [^ ]" || fail "the longest preset name, $longest_name, runs into its title"

rm -rf "$scratch"
mkdir -p "$scratch/scenarios"
long=a-preset-name-of-forty-three-characters-xyz
printf 'title = "Long"\nkernel = "matmul-tiled"\nwidth = 4\ntile = 2\n' > "$scratch/scenarios/$long.toml"
printf 'title = "Short"\nkernel = "matmul-tiled"\nwidth = 4\ntile = 2\n' > "$scratch/scenarios/s.toml"
listing=$(TILESCOPE_ASSETS="$scratch" "$tilescope" --list-scenarios) || fail "exit status $? with TILESCOPE_ASSETS"
check "$listing"
[ "$listing" = "$long  Long
s$(printf '%44s' '')Short" ] || fail "unexpected listing: $listing"
echo "list_scenarios_check: passed"
