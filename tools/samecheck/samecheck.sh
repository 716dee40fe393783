#!/usr/bin/env bash
# samecheck: run two builds of the filters on the same inputs and compare
# every output byte for byte: events (agt-parse, agt-normalize, --to each
# provider), transcripts (stdout and -o folders), stream logs (agt-streamlog
# both modes, agt-transcript -o --stream-log both modes), and the pipe
# agt-parse | agt-normalize | agt-transcript against the fused run of the
# second build. For refactors that must not change a byte.
#
#	tools/samecheck/samecheck.sh BEFORE_BIN AFTER_BIN WORK_DIR INPUT...
#
# BEFORE_BIN and AFTER_BIN hold agt-parse, agt-normalize, agt-transcript and
# agt-streamlog (build both with the same -ldflags -X ...agt.Version=V, as
# the version is in the index of -o folders). WORK_DIR receives the outputs.
# Exit status 1 when any output differs.
set -uo pipefail
[ $# -ge 4 ] || { sed -n 2,15p "$0"; exit 2; }
before=$1 after=$2 work=$3
shift 3
rm -rf "$work" && mkdir -p "$work/before" "$work/after"

# run NAME CMD...: the command's stdout and stderr into WORK_DIR/{before,after}/NAME
run() { sides 0 "$@"; }
# folder NAME CMD... -o: the same for a command that writes a folder
# (given as its last argument), with its timing line taken out of stderr
folder() { sides 1 "$@"; }
# sides FOLDER NAME CMD...: run and, with FOLDER 1, folder
sides() {
	local dir=$1 name=$2
	shift 2
	for side in before after; do
		local bin=$before
		[ $side = after ] && bin=$after
		local cmd=("$@")
		[ $dir = 1 ] && cmd+=("$work/$side/$name.d")
		(PATH="$bin:$PATH" "${cmd[@]}" >"$work/$side/$name.out" 2>"$work/$side/$name.err")
		echo $? >"$work/$side/$name.rc"
		if [ $dir = 1 ]; then
			sed -i 's/ in [0-9.]*s ([0-9.]* MB\/s)$//' "$work/$side/$name.err"
		fi
	done
}

run parse agt-parse "$@"
run parse-raw agt-parse --raw "$@"
run normalize agt-normalize "$@"
for to in claude codex gemini copilot pi opencode; do
	run normalize-to-$to agt-normalize --to "$to" "$@"
done
run transcript agt-transcript "$@"
run streamlog agt-streamlog --color never "$@"
run streamlog-raw agt-streamlog --mode raw "$@"
folder transcript-o agt-transcript "$@" -o
folder transcript-o-raw agt-transcript --stream-log raw "$@" -o
folder transcript-o-summary agt-transcript --stream-log summary "$@" -o
run pipe sh -c 'agt-parse "$@" | agt-normalize | agt-transcript' sh "$@"

status=0
if ! diff -r -q "$work/before" "$work/after"; then
	status=1
fi
# the pipe equals the fused run
if ! cmp -s "$work/after/pipe.out" "$work/after/transcript.out"; then
	echo "pipe and fused agt-transcript differ"
	status=1
fi
for f in "$work"/after/*.out; do
	printf '%-36s %10d bytes\n' "$(basename "$f")" "$(wc -c <"$f")"
done
[ $status = 0 ] && echo "samecheck: all outputs identical"
exit $status
