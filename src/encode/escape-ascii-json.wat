;; The sidecar's hot path, as WebAssembly with 128-bit SIMD: an ASCII line's bytes escaped as
;; the inside of a JSON string, with jq's escapes (\b \t \n \f \r \" \\, \u00XX for other C0
;; controls). Sixteen bytes are tested at once and copied whole up to the first byte that
;; needs escaping. The compiled bytes are embedded in escape-ascii-json.ts (`npm run wasm`
;; writes them; a test checks they are this file's).
;;
;; escape(src, end, dst): escapes memory[src, end) to memory at dst; returns the end of what
;; was written, or -1 at the first byte >= 0x80 (such lines take the string path: they may be
;; invalid UTF-8, which must become U+FFFD).
;;
;; Memory: 0-255 the short escape letter of each byte (0: none), 256-271 hex digits,
;; 1024-33791 the source, 40960 on the destination (six bytes out per byte in, and 16 spare).
(module
  (memory (export "memory") 5)
  (data (i32.const 8) "b")
  (data (i32.const 9) "t")
  (data (i32.const 10) "n")
  (data (i32.const 12) "f")
  (data (i32.const 13) "r")
  (data (i32.const 34) "\22")
  (data (i32.const 92) "\5c")
  (data (i32.const 256) "0123456789abcdef")
  (func (export "escape") (param $src i32) (param $end i32) (param $dst i32) (result i32)
    (local $b i32) (local $k i32) (local $v v128)
    (block $done
      (loop $next
        (block $scalar
          (loop $wide
            (br_if $scalar (i32.gt_u (i32.add (local.get $src) (i32.const 16)) (local.get $end)))
            (local.set $v (v128.load (local.get $src)))
            ;; Signed, bytes >= 0x80 are below 0x20 too: one test for controls and non-ASCII.
            (local.set $k
              (i8x16.bitmask
                (v128.or
                  (i8x16.lt_s (local.get $v) (i8x16.splat (i32.const 0x20)))
                  (v128.or
                    (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x22)))
                    (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x5c)))))))
            (v128.store (local.get $dst) (local.get $v))
            (if (i32.eqz (local.get $k))
              (then
                (local.set $src (i32.add (local.get $src) (i32.const 16)))
                (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
                (br $wide)))
            ;; The bytes before the first one to escape are already in place.
            (local.set $k (i32.ctz (local.get $k)))
            (local.set $src (i32.add (local.get $src) (local.get $k)))
            (local.set $dst (i32.add (local.get $dst) (local.get $k)))))
        (br_if $done (i32.ge_u (local.get $src) (local.get $end)))
        (local.set $b (i32.load8_u (local.get $src)))
        (local.set $src (i32.add (local.get $src) (i32.const 1)))
        (if (i32.ge_u (local.get $b) (i32.const 0x80)) (then (return (i32.const -1))))
        (if (i32.and (i32.ge_u (local.get $b) (i32.const 0x20))
                     (i32.and (i32.ne (local.get $b) (i32.const 0x22)) (i32.ne (local.get $b) (i32.const 0x5c))))
          (then
            (i32.store8 (local.get $dst) (local.get $b))
            (local.set $dst (i32.add (local.get $dst) (i32.const 1)))
            (br $next)))
        (local.set $k (i32.load8_u (local.get $b)))
        (i32.store8 (local.get $dst) (i32.const 0x5c))
        (if (local.get $k)
          (then
            (i32.store8 offset=1 (local.get $dst) (local.get $k))
            (local.set $dst (i32.add (local.get $dst) (i32.const 2))))
          (else
            (i32.store8 offset=1 (local.get $dst) (i32.const 0x75))
            (i32.store8 offset=2 (local.get $dst) (i32.const 0x30))
            (i32.store8 offset=3 (local.get $dst) (i32.const 0x30))
            (i32.store8 offset=4 (local.get $dst) (i32.load8_u offset=256 (i32.shr_u (local.get $b) (i32.const 4))))
            (i32.store8 offset=5 (local.get $dst) (i32.load8_u offset=256 (i32.and (local.get $b) (i32.const 15))))
            (local.set $dst (i32.add (local.get $dst) (i32.const 6)))))
        (br $next)))
    (local.get $dst)))
