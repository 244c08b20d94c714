#!/bin/sh
# Prints the comment block at the top of the script named by $1 (the lines after the
# shebang up to the first line that is not a comment), without the leading "# ": the usage
# text of the scripts in scripts/, which answer -h / --help with it.
exec awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$1"
