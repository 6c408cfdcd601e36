#!/bin/bash
# complete.sh SCRIPT WORD...: source the bash completion SCRIPT, complete
# the last WORD of the command line WORD... as bash would (bash splits
# words at "=" too: give "--opt" "=" "VALUE"), and print the candidates,
# one a line, sorted.
script=$1
shift
. "$script" || exit 1
spec=$(complete -p "$1") || exit 1
func=${spec#*-F }
func=${func%% *}
COMP_WORDS=("$@")
COMP_CWORD=$(($# - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
cur=${COMP_WORDS[COMP_CWORD]}
prev=
((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
"$func" "$1" "$cur" "$prev" || exit 1
((${#COMPREPLY[@]} == 0)) || printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort
