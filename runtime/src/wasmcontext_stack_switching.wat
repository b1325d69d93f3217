;; wasmcontext_stack_switching.wat - the switch primitives of the stack-switching
;; context backend (wasmcontext_stack_switching.c), in WebAssembly text because
;; LLVM 19 cannot emit them. The link step merges this module into the program
;; (wasm-merge, module name "llgo_stack_switching"; the program is "llgo_program"),
;; so C calls these exports as plain imports, and then removes the exports named
;; "llgo_stack_switching_*" and "__c_longjmp" again.
;;
;; A context is one continuation, kept in the table below at the slot the C side
;; gives it (wasm references cannot live in linear memory). Its first frame is a
;; loop: it calls the context's C entry, and when that returns (or `exit` threw
;; $exit) it suspends on $done, so the host's `resume` sees it finish while the
;; continuation - and the stack the engine allocated for it - stays in the slot
;; for the next entry: re-arming a context costs no cont.new. `suspend` suspends
;; on $yield. The slot is empty only before the first arm and after an exception
;; left the continuation (then the next arm makes a new one).
;;
;; Engine rules (V8 14.6, Node 26, --experimental-wasm-wasmfx): no GC
;; instructions here - V8's optimising compiler aborts on a function that has
;; `resume` and a struct.get/array.get; never the symmetric `switch` instruction
;; (it crashes V8). Binaryen needs the features exception-handling,
;; stack-switching, gc and reference-types to read this file.
(module
  (type $body (func))
  (type $continuation (cont $body))

  ;; The C function every context's entry runs in: llgo_stack_switching_start(self).
  (import "llgo_program" "llgo_stack_switching_start" (func $start (param i32)))
  ;; LLVM's setjmp/longjmp tag (wasm-ld exports it with --export=__c_longjmp;
  ;; wasm32: the payload is a pointer).
  (import "llgo_program" "__c_longjmp" (tag $c_longjmp (param i32)))

  (tag $yield)
  (tag $done)
  (tag $exit)

  (table $continuations 0 (ref null $continuation))
  ;; The argument of the context being resumed (read by its first frame when an
  ;; entry starts).
  (global $starting (mut i32) (i32.const 0))
  ;; The exception resume last returned 3 for.
  (global $escaping (mut exnref) (ref.null exn))

  (func $first_frame
    (loop $next_entry
      (block $exited
        (try_table (catch $exit $exited)
          (call $start (global.get $starting))))
      (suspend $done)
      (br $next_entry)))
  (elem declare func $first_frame)

  ;; arm(slot) -> 0, or -1 when the table cannot grow: `slot` gets a
  ;; continuation ready to start an entry (a new one unless it has one). The
  ;; table grows by half again as much as it needs.
  (func (export "llgo_stack_switching_arm") (param $slot i32) (result i32)
    (local $size i32)
    (local.set $size (table.size $continuations))
    (if (i32.ge_u (local.get $slot) (local.get $size))
      (then
        (if (i32.eq (table.grow $continuations (ref.null $continuation)
                      (i32.add (i32.sub (local.get $slot) (local.get $size))
                               (i32.add (i32.const 16) (i32.shr_u (local.get $slot) (i32.const 1)))))
                    (i32.const -1))
          (then (return (i32.const -1))))))
    (if (ref.is_null (table.get $continuations (local.get $slot)))
      (then
        (table.set $continuations (local.get $slot)
          (cont.new $continuation (ref.func $first_frame)))))
    (i32.const 0))

  ;; drop(slot): forgets what `slot` holds.
  (func (export "llgo_stack_switching_drop") (param $slot i32)
    (table.set $continuations (local.get $slot) (ref.null $continuation)))

  ;; resume(slot, self) -> 0 it suspended, 1 its entry returned or exited, 2 a
  ;; longjmp left it (to a jmp_buf that none of its frames set), 3 another
  ;; exception left it (e.g. a host's JS exception: WASI proc_exit in Node
  ;; unwinds that way) - kept for `rethrow`. After 2 and 3 the slot is empty.
  ;; `self` goes to $start when an entry starts.
  (func (export "llgo_stack_switching_resume") (param $slot i32) (param $self i32) (result i32)
    (local $rest (ref null $continuation))
    (global.set $starting (local.get $self))
    (block $longjmp (result i32)
      (block $other (result exnref)
        (block $on_done (result (ref $continuation))
          (block $on_yield (result (ref $continuation))
            (try_table (catch $c_longjmp $longjmp) (catch_all_ref $other)
              (resume $continuation (on $yield $on_yield) (on $done $on_done)
                (table.get $continuations (local.get $slot))))
            (unreachable)) ;; $first_frame never returns
          (local.set $rest)
          (table.set $continuations (local.get $slot) (local.get $rest))
          (return (i32.const 0)))
        (local.set $rest)
        (table.set $continuations (local.get $slot) (local.get $rest))
        (return (i32.const 1)))
      (global.set $escaping)
      (table.set $continuations (local.get $slot) (ref.null $continuation))
      (return (i32.const 3)))
    (drop)
    (table.set $continuations (local.get $slot) (ref.null $continuation))
    (i32.const 2))

  ;; After resume returned 3 and the host restored its state: the exception
  ;; goes on.
  (func (export "llgo_stack_switching_rethrow")
    (throw_ref (global.get $escaping)))

  ;; Inside a context: back to its resume, which returns 0.
  (func (export "llgo_stack_switching_suspend")
    (suspend $yield))

  ;; Inside a context: unwinds it to its first frame; its resume returns 1.
  (func (export "llgo_stack_switching_exit")
    (throw $exit))
)
