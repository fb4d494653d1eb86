# Weights: a nice 0 and a nice 5 task sharing CPU 3 get CPU time about 3:1
# (weights 1024:335, within 15%); two nice 0 tasks (control) get 1:1.
. ./lib.sh
. ./scx_push.sh

# share NICE_A NICE_B: the CPU time ratio of two tasks pinned to CPU 3; their
# reports are left in /tmp/burn.a and /tmp/burn.b.
share() {
	burn -t 5 -c 3 -n "$1" >/tmp/burn.a &
	a=$!
	burn -t 5 -c 3 -n "$2" >/tmp/burn.b &
	wait "$a" "$!"
	awk -v a="$(field cpu_ms "$(cat /tmp/burn.a)")" -v b="$(field cpu_ms "$(cat /tmp/burn.b)")" \
		'BEGIN { printf "%.2f", b ? a / b : 999 }'
}

# within RATIO LOW HIGH
within() {
	awk -v r="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(r >= lo && r <= hi) }'
}

scx_push_start
ratio=$(share 0 5)
info "nice 0: $(cat /tmp/burn.a); nice 5: $(cat /tmp/burn.b)"
within "$ratio" 2.55 3.45 || fail "nice 0 : nice 5 got $ratio : 1, want 3 : 1 +- 15%"
control=$(share 0 0)
info "nice 0: $(cat /tmp/burn.a); nice 0: $(cat /tmp/burn.b)"
within "$control" 0.85 1.15 || fail "nice 0 : nice 0 got $control : 1, want 1 : 1 +- 15%"
scx_push_stop
info "nice 0 : nice 5 = $ratio : 1, nice 0 : nice 0 = $control : 1"
