;; The hot paths of JSON strings, as WebAssembly with 128-bit SIMD: sixteen bytes are tested at
;; once and copied whole up to the first byte that needs work. The compiled bytes are embedded
;; in json-string-wasm.ts (`npm run wasm` writes them; a test checks they are this file's), and
;; json-kernels.ts calls them.
;;
;; escape(src, end, dst): the sidecar's. An ASCII line's bytes memory[src, end) escaped as the
;; inside of a JSON string at dst, with jq's escapes (\b \t \n \f \r \" \\, \u00XX for other C0
;; controls). Returns the end of what was written, or -1 at the first byte >= 0x80 (such lines
;; take the string path: they may be invalid UTF-8, which must become U+FFFD).
;;
;; unescape(src, end, dst): the filter's. The inside of a JSON string literal decoded to its
;; UTF-8 bytes at dst. Returns the end of what was written; -1 when the literal is not valid
;; (a lone backslash, an unknown escape); -2 at a \u escape, which the caller decodes itself.
;;
;; terminalUnsafe(src, end): pretty output's. 0 when the literal memory[src, end) surely
;; decodes to text safe for a terminal: no byte below 0x20 or from 0x7f (so no C1 control, no
;; bidirectional mark), and no backslash before u, n, r, b or f (an escape to a control, or
;; an escape of the text's own, which a parse of it would decode to one); else 1, and the
;; caller looks closer. Its own pass, not a part of unescape: in unescape's loop it made the
;; raw output 12% slower.
;;
;; Memory: 0-255 the short escape letter of each byte (0: none), 256-271 hex digits, 512-767
;; the byte each escape letter stands for (0: none); escape reads 1024-33791 and writes from
;; 40960 (six bytes out per byte in, and 16 spare); unescape reads 262144-524287 (or, for a
;; file's chunk read straight into memory, 1048576-2097151) and writes from 524288 (decoding
;; never grows, and 16 spare). From 2097152: output chunks the callers write into directly,
;; each followed by 64 spare bytes (the 16-byte stores may pass the end of what is written).
(module
  (memory (export "memory") 65)
  (data (i32.const 8) "b")
  (data (i32.const 9) "t")
  (data (i32.const 10) "n")
  (data (i32.const 12) "f")
  (data (i32.const 13) "r")
  (data (i32.const 34) "\22")
  (data (i32.const 92) "\5c")
  (data (i32.const 256) "0123456789abcdef")
  (data (i32.const 546) "\22")
  (data (i32.const 559) "/")
  (data (i32.const 604) "\5c")
  (data (i32.const 610) "\08")
  (data (i32.const 614) "\0c")
  (data (i32.const 622) "\0a")
  (data (i32.const 626) "\0d")
  (data (i32.const 628) "\09")
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
    (local.get $dst))
  (func (export "unescape") (param $src i32) (param $end i32) (param $dst i32) (result i32)
    (local $b i32) (local $k i32) (local $v v128)
    (block $done
      (loop $next
        (block $scalar
          (loop $wide
            (br_if $scalar (i32.gt_u (i32.add (local.get $src) (i32.const 16)) (local.get $end)))
            (local.set $v (v128.load (local.get $src)))
            (local.set $k (i8x16.bitmask (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x5c)))))
            (v128.store (local.get $dst) (local.get $v))
            (if (i32.eqz (local.get $k))
              (then
                (local.set $src (i32.add (local.get $src) (i32.const 16)))
                (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
                (br $wide)))
            (local.set $k (i32.ctz (local.get $k)))
            (local.set $src (i32.add (local.get $src) (local.get $k)))
            (local.set $dst (i32.add (local.get $dst) (local.get $k)))))
        (br_if $done (i32.ge_u (local.get $src) (local.get $end)))
        (local.set $b (i32.load8_u (local.get $src)))
        (if (i32.ne (local.get $b) (i32.const 0x5c))
          (then
            (i32.store8 (local.get $dst) (local.get $b))
            (local.set $src (i32.add (local.get $src) (i32.const 1)))
            (local.set $dst (i32.add (local.get $dst) (i32.const 1)))
            (br $next)))
        (if (i32.ge_u (i32.add (local.get $src) (i32.const 1)) (local.get $end)) (then (return (i32.const -1))))
        (local.set $b (i32.load8_u offset=1 (local.get $src)))
        (if (i32.eq (local.get $b) (i32.const 0x75)) (then (return (i32.const -2))))
        (local.set $k (i32.const 0))
        (if (i32.lt_u (local.get $b) (i32.const 0x80)) (then (local.set $k (i32.load8_u offset=512 (local.get $b)))))
        (if (i32.eqz (local.get $k)) (then (return (i32.const -1))))
        (i32.store8 (local.get $dst) (local.get $k))
        (local.set $src (i32.add (local.get $src) (i32.const 2)))
        (local.set $dst (i32.add (local.get $dst) (i32.const 1)))
        (br $next)))
    (local.get $dst))
  (func (export "terminalUnsafe") (param $src i32) (param $end i32) (result i32)
    (local $v v128) (local $next v128) (local $unsafe v128) (local $escapes i32) (local $b i32)
    (block $scalar
      (loop $wide
        ;; 17 bytes read a turn: a byte and the one after it.
        (br_if $scalar (i32.gt_u (i32.add (local.get $src) (i32.const 17)) (local.get $end)))
        (local.set $v (v128.load (local.get $src)))
        (local.set $next (v128.load offset=1 (local.get $src)))
        (local.set $unsafe (v128.or (local.get $unsafe)
          (v128.or (i8x16.lt_u (local.get $v) (i8x16.splat (i32.const 0x20)))
                   (i8x16.gt_u (local.get $v) (i8x16.splat (i32.const 0x7e))))))
        (local.set $escapes (i32.or (local.get $escapes)
          (i8x16.bitmask (v128.and
            (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x5c)))
            (v128.or
              (v128.or (i8x16.eq (local.get $next) (i8x16.splat (i32.const 0x75))) (i8x16.eq (local.get $next) (i8x16.splat (i32.const 0x6e))))
              (v128.or (i8x16.eq (local.get $next) (i8x16.splat (i32.const 0x72)))
                       (v128.or (i8x16.eq (local.get $next) (i8x16.splat (i32.const 0x62))) (i8x16.eq (local.get $next) (i8x16.splat (i32.const 0x66))))))))))
        (local.set $src (i32.add (local.get $src) (i32.const 16)))
        (br $wide)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $src) (local.get $end)))
        (local.set $b (i32.load8_u (local.get $src)))
        (if (i32.or (i32.lt_u (local.get $b) (i32.const 0x20)) (i32.gt_u (local.get $b) (i32.const 0x7e)))
          (then (return (i32.const 1))))
        (if (i32.and (i32.eq (local.get $b) (i32.const 0x5c)) (i32.lt_u (i32.add (local.get $src) (i32.const 1)) (local.get $end)))
          (then
            (local.set $b (i32.load8_u offset=1 (local.get $src)))
            (if (i32.or (i32.or (i32.eq (local.get $b) (i32.const 0x75)) (i32.eq (local.get $b) (i32.const 0x6e)))
                        (i32.or (i32.eq (local.get $b) (i32.const 0x72)) (i32.or (i32.eq (local.get $b) (i32.const 0x62)) (i32.eq (local.get $b) (i32.const 0x66)))))
              (then (return (i32.const 1))))))
        (local.set $src (i32.add (local.get $src) (i32.const 1)))
        (br $next)))
    (i32.or (local.get $escapes) (i32.ne (i8x16.bitmask (local.get $unsafe)) (i32.const 0))))
  )
