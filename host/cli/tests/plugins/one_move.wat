;; A one-move game for the command line's end-to-end tests (`cli.rs`, `one_move_plugin`):
;; seat 0 plays "win" and wins. It passes the conformance kit, so it installs.
;;
;; `$$KEY` stands for `(i32.const offset) (i32.const length)` of a text the test lays out in
;; memory (the manifest, statuses, actions… in which it puts what it likes, escape
;; sequences included). `@BROKEN@` is 1 in the broken build: a game set up with a seed of
;; two digits or more (a set-up JSON of 36 bytes or more) then has seat 0 to act with no
;; move, while the install self-check (seeds 1 and 2) sees nothing wrong. Both builds make
;; the very same states, so a session started with the broken one resumes with the fixed one.
;; `@SPIN@` is how many turns of an empty loop each new game costs (0 but in the slow build,
;; a plugin whose calls are slow but valid).
;;
;; A game's state is one byte at 256 + handle: bit 0 finished, bit 1 "large seed". Saved, it
;; is that byte as a digit.
(module
  (memory (export "memory") 1)
  (global $out (mut i32) (i32.const 0))
  (global $next (mut i32) (i32.const 0))
  (func $emit (param i32 i32) (result i64)
    (global.set $out (local.get 0)) (i64.extend_i32_u (local.get 1)))
  (func $fail (param i32 i32) (result i64)
    (global.set $out (local.get 0)) (i64.sub (i64.const -1) (i64.extend_i32_u (local.get 1))))
  (func $state (param i32) (result i32) (i32.load8_u (i32.add (i32.const 256) (local.get 0))))
  (func $finished (param i32) (result i32) (i32.and (call $state (local.get 0)) (i32.const 1)))
  (func $stuck (param i32) (result i32)
    (i32.and (i32.const @BROKEN@) (i32.shr_u (call $state (local.get 0)) (i32.const 1))))
  ;; Whether seat `seat` may play in game `game` now.
  (func $may_play (param $game i32) (param $seat i32) (result i32)
    (i32.eqz (i32.or (i32.or (call $finished (local.get $game)) (local.get $seat))
      (call $stuck (local.get $game)))))
  (func $finish (param i32)
    (i32.store8 (i32.add (i32.const 256) (local.get 0))
      (i32.or (call $state (local.get 0)) (i32.const 1))))
  (func $spin (local $turns i32)
    (block $done (loop $again
      (br_if $done (i32.ge_u (local.get $turns) (i32.const @SPIN@)))
      (local.set $turns (i32.add (local.get $turns) (i32.const 1)))
      (br $again))))
  (func $alloc (param i32) (result i64) (local $h i32)
    (local.set $h (global.get $next))
    (i32.store8 (i32.add (i32.const 256) (local.get $h)) (local.get 0))
    (global.set $next (i32.add (local.get $h) (i32.const 1)))
    (i64.extend_i32_u (local.get $h)))
  ;; Whether the input (of length `len`) is the id "win".
  (func $is_win (param $len i32) (result i32)
    (i32.and (i32.eq (local.get $len) (i32.const 3))
      (i32.and (i32.eq (i32.load16_u (i32.const 32768)) (i32.const 0x6977))
        (i32.eq (i32.load8_u (i32.const 32770)) (i32.const 0x6e)))))

  (func (export "veillee_abi_version") (result i32) (i32.const 0x10000))
  (func (export "veillee_input") (param i32) (result i32) (i32.const 32768))
  (func (export "veillee_output_ptr") (result i32) (global.get $out))
  (func (export "veillee_manifest") (result i64) (call $emit $$MANIFEST))
  (func (export "veillee_new") (param i32) (result i64)
    (call $spin)
    (call $alloc (i32.shl (i32.ge_u (local.get 0) (i32.const 36)) (i32.const 1))))
  (func (export "veillee_load") (param i32) (result i64) (local $digit i32)
    (local.set $digit (i32.sub (i32.load8_u (i32.const 32768)) (i32.const 48)))
    (if (result i64) (i32.or (i32.ne (local.get 0) (i32.const 1)) (i32.gt_u (local.get $digit) (i32.const 3)))
      (then (call $fail $$INVALID_STATE))
      (else (call $alloc (local.get $digit)))))
  (func (export "veillee_save") (param i32) (result i64)
    (i32.store8 (i32.const 512) (i32.add (call $state (local.get 0)) (i32.const 48)))
    (call $emit (i32.const 512) (i32.const 1)))
  (func (export "veillee_clone") (param i32) (result i64) (call $alloc (call $state (local.get 0))))
  (func (export "veillee_drop") (param i32))
  (func (export "veillee_status") (param i32) (result i64)
    (if (result i64) (call $finished (local.get 0))
      (then (call $emit $$FINISHED)) (else (call $emit $$TO_ACT))))
  (func (export "veillee_legal_actions") (param i32 i32) (result i64)
    (if (result i64) (call $may_play (local.get 0) (local.get 1))
      (then (call $emit $$ACTIONS)) (else (call $emit $$EMPTY))))
  (func (export "veillee_apply") (param i32 i32 i32) (result i64)
    (if (result i64) (call $finished (local.get 0)) (then (call $fail $$GAME_OVER))
      (else (if (result i64) (i32.and (call $may_play (local.get 0) (local.get 1)) (call $is_win (local.get 2)))
        (then (call $finish (local.get 0)) (call $emit $$EVENTS))
        (else (call $fail $$ILLEGAL))))))
  (func (export "veillee_action_count") (param i32 i32) (result i64)
    (i64.extend_i32_u (call $may_play (local.get 0) (local.get 1))))
  (func (export "veillee_apply_index") (param i32 i32 i32) (result i64)
    (if (result i64) (call $finished (local.get 0)) (then (call $fail $$GAME_OVER))
      (else (if (result i64) (i32.and (call $may_play (local.get 0) (local.get 1)) (i32.eqz (local.get 2)))
        (then (call $finish (local.get 0)) (i64.const 0))
        (else (call $fail $$ILLEGAL))))))
  (func (export "veillee_view") (param i32 i32) (result i64) (call $emit $$SCENE))
  (func (export "veillee_playout") (param i32 i64 i32) (result i64)
    (if (result i64) (call $finished (local.get 0)) (then (call $emit $$PLAYOUT_DONE))
      (else (if (result i64) (call $stuck (local.get 0)) (then (call $emit $$PLAYOUT_STUCK))
        (else (if (result i64) (i32.gt_s (local.get 2) (i32.const 0))
          (then (call $finish (local.get 0)) (call $emit $$PLAYOUT_ONE))
          (else (call $emit $$PLAYOUT_OPEN))))))))
  (func (export "veillee_redraw_hidden") (param i32 i32 i64) (result i64)
    (call $alloc (call $state (local.get 0))))
  (func (export "veillee_panic_message") (result i64) (i64.const 0))
)
