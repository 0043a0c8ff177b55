# Sourced by tests that compare fio's "issued rwts" and "IO depths" lines
# (the first four depth buckets) for a table of jobs, with storsim and
# with the installed fio when it is 3.33. The test defines job OPTIONS...,
# which prints the job as fio command-line options, and calls
# issued_cases with a table of "options | issued line | depths line".
# A test that compares other lines redefines issued_lines after sourcing
# this file and calls issued_case itself.

# issued_lines OUTPUT: the two lines a case compares
issued_lines() {
	printf '%s\n' "$1" | sed -n 's/.*issued rwts: //p'
	printf '%s\n' "$1" |
		sed -n 's/.*IO depths *: \([^,]*, [^,]*, [^,]*, [^,]*\),.*/\1/p'
}

# issued_case WHO WANT OUTPUT: one TAP line, WHO printing the lines or not
issued_case() {
	if [ "$(issued_lines "$3")" = "$2" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "got: $(issued_lines "$3")"
	fi
}

# issued_cases TABLE FILE: two TAP lines per row (storsim, fio 3.33);
# FILE is the job's data file, removed before fio runs. SYSTEM_ARGS, if
# set, go to storsim only (the simulated system: --file=..., --device=...).
issued_cases() {
	_fio=$(fio333)
	while IFS='|' read -r opts issued depths; do
		want=$(printf '%s\n%s' "$issued" "$depths")
		# shellcheck disable=SC2046,SC2086
		issued_case "storsim, $opts: $issued, depths $depths" "$want" \
			"$("$STORSIM" run --no-cpu-profile $SYSTEM_ARGS $(job $opts))"
		if [ -z "$_fio" ]; then
			ok "fio, $opts # SKIP fio 3.33 is not installed"
			continue
		fi
		rm -f "$2"
		# shellcheck disable=SC2046,SC2086
		issued_case "fio 3.33, $opts: the same lines" "$want" \
			"$("$_fio" $(job $opts) 2>&1)"
	done <<EOF2
$1
EOF2
}
