;; The hot paths of JSON strings, as WebAssembly with 128-bit SIMD: sixteen bytes are tested at
;; once and copied whole up to the first byte that needs work. And the reading of log lines
;; from their bytes, where the input was read into this memory: the fields server and agent
;; lines start with, and the members of a server line's attributes. json-kernels.ts calls them;
;; reference-kernels.ts says the same in plain TypeScript, and the property tests hold the two
;; to each other.
;;
;; This is a template: every place in memory is named, `@name` (`@name+N`: N bytes further),
;; and declared once in kernel-layout.ts. `npm run wasm` writes the numbers in, compiles the
;; text with wabt and embeds the bytes in kernels-wasm.ts (a test checks they are this file's).
;; The module exports each region's start (`layout.NAME`), for json-kernels.ts to compare with
;; the layout at load.
;;
;; escape(src, end, dst): the sidecar's. An ASCII line's bytes memory[src, end) escaped as the
;; inside of a JSON string at dst, with jq's escapes (\b \t \n \f \r \" \\, \u00XX for other C0
;; controls). Returns the end of what was written, or -1 at the first byte >= 0x80 (such lines
;; take the string path: they may be invalid UTF-8, which must become U+FFFD).
;;
;; unescape(src, end, dst): the filter's. The inside of a JSON string literal decoded to its
;; UTF-8 bytes at dst. Returns the end of what was written; -1 when the literal is not valid
;; (a lone backslash, an unknown escape, a quote not escaped: the literal ended before, and what
;; follows is more of the line, as in `"contents":"a","pod":"x"}`); -2 at a \u escape, which
;; the caller decodes itself. Other bytes are copied as they are (a raw control, invalid UTF-8).
;;
;; terminalUnsafe(src, end): pretty output's. 0 when the literal memory[src, end) surely
;; decodes to text safe for a terminal: no byte below 0x20 or from 0x7f (so no C1 control, no
;; bidirectional mark), and no backslash before u, n, r, b or f (an escape to a control, or
;; an escape of the text's own, which a parse of it would decode to one); else 1, and the
;; caller looks closer. Its own pass, not a part of unescape: inside unescape's loop it slowed
;; the raw output, which never asks.
;;
;; literalInvalid(src, end): the filter's, before it writes an entry's bytes as they came. 0
;; when memory[src, end) is the inside of a valid JSON string: no byte below 0x20, no quote
;; that is not escaped, every backslash one of the nine escapes (\u with four hex digits);
;; else 1. Bytes from 0x80 are not looked at (invalid UTF-8 is the reader's to replace, as
;; jq does). Sixteen bytes are tested at once up to the first byte that needs a look.
;;
;; serverHead(src, end, escaped): the filter's and summary's. Reads the fields every 4.4+
;; server line starts with in memory[src, end): `{"t":{"$date":"…"},"s":"…","c":"…","id":N,
;; "ctx":"…","msg":"…"`, in the server's order, with spaces or tabs where it pads; as the
;; server wrote the line (escaped 0) or inside an entry's contents literal, its quotes escaped
;; once more (escaped 1: `{\"t\":…`). Returns 1 and writes the answer in headAnswer's slots
;; (kernel-layout.ts, HEAD_SLOT: the time's start and end; the severity's start, end and kept
;; index; the component's the same; the id; the context's start and end; the message's start,
;; end and kept index; where the head ends) and the time in milliseconds at headMillis, an f64,
;; NaN when it is not in the form parseIsoMillis reads. An end is where the closing quote
;; starts; a kept index is -1 for a text not kept. Returns 0 when the head is not there in this
;; form (another shape, an escape inside one of its strings, an id of more than nine digits).
;;
;; agentHead(src, end): the agents' bracketed fields at the start of memory[src, end): `[time]
;; [level] [source]`, then one space or none. Returns 1 and writes the answer as serverHead
;; does: the time's start and end (the time not empty) and milliseconds, the level in the
;; severity's place, the source in the component's, and where the rest starts in the head's
;; end's; returns 0 when the line does not start so, or a field holds a backslash or a byte
;; from 0x80 (an escape to decode, or text whose bytes are not its characters).
;;
;; objectMembers(src, end, escaped, max): the members of the JSON object whose `{` is at src,
;; within memory[src, end), as the server wrote it or inside a literal (escaped 1: its quotes
;; escaped once more, its backslashes twice). Writes four i32s a member at membersAnswer: where
;; its key starts and ends and where its value starts and ends (a key's end is where its
;; closing quote starts; a value's end is past its last byte, quotes included). Returns how
;; many it read (it stops at max, the rest unread; the caller keeps max within the answer's
;; room), or -1 when the text is not such an object or a key has an escape of its own. Strings
;; are skipped sixteen bytes at a time.
;;
;; keepText(src, end): keeps the text memory[src, end) so that serverHead and agentHead know it
;; by its bytes the next time; returns its index (the caller keeps the decoded text under it),
;; or -1 when there is no room (kernel-layout.ts, KEPT_TEXTS).
;;
;; Memory: the regions of kernel-layout.ts, LAYOUT, where each says what it holds and who reads
;; it. The wide loops read up to READ_PAST_BYTES past the end of what they look at, and the
;; 16-byte stores write up to fifteen bytes past the end of what they write (within the room
;; the caller gives: decoding never grows, escaping at most six times).
(module
  (memory (export "memory") @memoryPages)
  (data (i32.const @escapeLetters+8) "b")
  (data (i32.const @escapeLetters+9) "t")
  (data (i32.const @escapeLetters+10) "n")
  (data (i32.const @escapeLetters+12) "f")
  (data (i32.const @escapeLetters+13) "r")
  (data (i32.const @escapeLetters+34) "\22")
  (data (i32.const @escapeLetters+92) "\5c")
  (data (i32.const @hexDigits) "0123456789abcdef")
  (data (i32.const @unescapedBytes+34) "\22")
  (data (i32.const @unescapedBytes+47) "/")
  (data (i32.const @unescapedBytes+92) "\5c")
  (data (i32.const @unescapedBytes+98) "\08")
  (data (i32.const @unescapedBytes+102) "\0c")
  (data (i32.const @unescapedBytes+110) "\0a")
  (data (i32.const @unescapedBytes+114) "\0d")
  (data (i32.const @unescapedBytes+116) "\09")
  ;; The head's punctuation as a line writes it, and escaped once more as a literal holds it
  ;; (kernel-layout.ts, HEAD_PUNCTUATION).
  (data (i32.const @punctuation) @punctuation.data)
  (data (i32.const @escapedPunctuation) @escapedPunctuation.data)
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
        (local.set $k (i32.load8_u offset=@escapeLetters (local.get $b)))
        (i32.store8 (local.get $dst) (i32.const 0x5c))
        (if (local.get $k)
          (then
            (i32.store8 offset=1 (local.get $dst) (local.get $k))
            (local.set $dst (i32.add (local.get $dst) (i32.const 2))))
          (else
            (i32.store8 offset=1 (local.get $dst) (i32.const 0x75))
            (i32.store8 offset=2 (local.get $dst) (i32.const 0x30))
            (i32.store8 offset=3 (local.get $dst) (i32.const 0x30))
            (i32.store8 offset=4 (local.get $dst) (i32.load8_u offset=@hexDigits (i32.shr_u (local.get $b) (i32.const 4))))
            (i32.store8 offset=5 (local.get $dst) (i32.load8_u offset=@hexDigits (i32.and (local.get $b) (i32.const 15))))
            (local.set $dst (i32.add (local.get $dst) (i32.const 6)))))
        (br $next)))
    (local.get $dst))
  (func (export "unescape") (param $src i32) (param $end i32) (param $dst i32) (result i32)
    (local $b i32) (local $k i32) (local $v v128) (local $backslashes v128) (local $quotes v128)
    ;; The bytes looked for, made once a call rather than at every 16 bytes.
    (local.set $backslashes (i8x16.splat (i32.const 0x5c)))
    (local.set $quotes (i8x16.splat (i32.const 0x22)))
    (block $done
      (loop $next
        (block $scalar
          (loop $wide
            (br_if $scalar (i32.gt_u (i32.add (local.get $src) (i32.const 16)) (local.get $end)))
            (local.set $v (v128.load (local.get $src)))
            (local.set $k (i8x16.bitmask (v128.or
              (i8x16.eq (local.get $v) (local.get $backslashes))
              (i8x16.eq (local.get $v) (local.get $quotes)))))
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
        (if (i32.eq (local.get $b) (i32.const 0x22)) (then (return (i32.const -1))))
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
        (if (i32.lt_u (local.get $b) (i32.const 0x80)) (then (local.set $k (i32.load8_u offset=@unescapedBytes (local.get $b)))))
        (if (i32.eqz (local.get $k)) (then (return (i32.const -1))))
        (i32.store8 (local.get $dst) (local.get $k))
        (local.set $src (i32.add (local.get $src) (i32.const 2)))
        (local.set $dst (i32.add (local.get $dst) (i32.const 1)))
        (br $next)))
    (local.get $dst))
  (func $isHex (param $b i32) (result i32)
    (i32.or (i32.lt_u (i32.sub (local.get $b) (i32.const 0x30)) (i32.const 10))
            (i32.lt_u (i32.sub (i32.or (local.get $b) (i32.const 0x20)) (i32.const 0x61)) (i32.const 6))))
  (func (export "literalInvalid") (param $src i32) (param $end i32) (result i32)
    (local $b i32) (local $k i32) (local $v v128) (local $next v128) (local $backslashes v128) (local $quotes v128) (local $space v128)
    (local $bs i32) (local $letters i32) (local $special i32)
    (local.set $backslashes (i8x16.splat (i32.const 0x5c)))
    (local.set $quotes (i8x16.splat (i32.const 0x22)))
    (local.set $space (i8x16.splat (i32.const 0x20)))
    (block $done
      (loop $next
        (block $scalar
          (loop $wide
            ;; 17 bytes read a turn: sixteen, and the letter after each backslash among them.
            (br_if $scalar (i32.gt_u (i32.add (local.get $src) (i32.const 17)) (local.get $end)))
            (local.set $v (v128.load (local.get $src)))
            (local.set $next (v128.load offset=1 (local.get $src)))
            (local.set $bs (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $backslashes))))
            (local.set $letters (i8x16.bitmask (i8x16.eq (local.get $next) (local.get $quotes))))
            (local.set $special (i8x16.bitmask (v128.or
              (i8x16.eq (local.get $v) (local.get $quotes))
              (i8x16.lt_u (local.get $v) (local.get $space)))))
            ;; Sixteen bytes settled at once when each backslash stands alone before a short
            ;; escape's letter, and each quote or control is such a letter (escaped, or
            ;; invalid as a letter: caught by the letters' test). Two backslashes in a row, a
            ;; \u, anything else: looked at byte by byte from the first byte that needs it.
            ;; Most often (a server line's escapes inside an entry are all \") each backslash
            ;; has a quote after it and each quote a backslash before it: one comparison.
            (if (i32.and (i32.eq (local.get $bs) (local.get $letters)) (i32.eq (local.get $special) (i32.and (i32.shl (local.get $bs) (i32.const 1)) (i32.const 0xffff))))
              (then
                ;; A backslash last: its letter, the next turn's first byte, is read already.
                (local.set $src (i32.add (local.get $src) (i32.add (i32.const 16) (i32.shr_u (local.get $bs) (i32.const 15)))))
                (br $wide)))
            ;; Else the letters are any of " \ / b f n r t.
            (if (i32.and (local.get $bs) (i32.xor (local.get $letters) (i32.const 0xffff)))
              (then
                (local.set $letters (i8x16.bitmask (v128.or
                  (v128.or
                    (v128.or (i8x16.eq (local.get $next) (local.get $quotes)) (i8x16.eq (local.get $next) (local.get $backslashes)))
                    (v128.or (i8x16.eq (local.get $next) (i8x16.splat (i32.const 0x2f))) (i8x16.eq (local.get $next) (i8x16.splat (i32.const 0x62)))))
                  (v128.or
                    (v128.or (i8x16.eq (local.get $next) (i8x16.splat (i32.const 0x66))) (i8x16.eq (local.get $next) (i8x16.splat (i32.const 0x6e))))
                    (v128.or (i8x16.eq (local.get $next) (i8x16.splat (i32.const 0x72))) (i8x16.eq (local.get $next) (i8x16.splat (i32.const 0x74))))))))))
            (if (i32.and
                  (i32.eqz (i32.and (local.get $bs) (i32.shl (local.get $bs) (i32.const 1))))
                  (i32.and
                    (i32.eqz (i32.and (local.get $bs) (i32.xor (local.get $letters) (i32.const 0xffff))))
                    (i32.eqz (i32.and (local.get $special) (i32.xor (i32.shl (local.get $bs) (i32.const 1)) (i32.const 0xffff))))))
              (then
                (local.set $src (i32.add (local.get $src) (i32.add (i32.const 16) (i32.shr_u (local.get $bs) (i32.const 15)))))
                (br $wide)))
            (local.set $src (i32.add (local.get $src) (i32.ctz (i32.or (local.get $bs) (local.get $special)))))))
        (br_if $done (i32.ge_u (local.get $src) (local.get $end)))
        (local.set $b (i32.load8_u (local.get $src)))
        (if (i32.or (i32.lt_u (local.get $b) (i32.const 0x20)) (i32.eq (local.get $b) (i32.const 0x22)))
          (then (return (i32.const 1))))
        (if (i32.ne (local.get $b) (i32.const 0x5c))
          (then
            (local.set $src (i32.add (local.get $src) (i32.const 1)))
            (br $next)))
        (if (i32.ge_u (i32.add (local.get $src) (i32.const 1)) (local.get $end)) (then (return (i32.const 1))))
        (local.set $b (i32.load8_u offset=1 (local.get $src)))
        (if (i32.eq (local.get $b) (i32.const 0x75))
          (then
            (if (i32.gt_u (i32.add (local.get $src) (i32.const 6)) (local.get $end)) (then (return (i32.const 1))))
            (if (i32.eqz (i32.and
                  (i32.and (call $isHex (i32.load8_u offset=2 (local.get $src))) (call $isHex (i32.load8_u offset=3 (local.get $src))))
                  (i32.and (call $isHex (i32.load8_u offset=4 (local.get $src))) (call $isHex (i32.load8_u offset=5 (local.get $src))))))
              (then (return (i32.const 1))))
            (local.set $src (i32.add (local.get $src) (i32.const 6)))
            (br $next)))
        (local.set $k (i32.const 0))
        (if (i32.lt_u (local.get $b) (i32.const 0x80)) (then (local.set $k (i32.load8_u offset=@unescapedBytes (local.get $b)))))
        (if (i32.eqz (local.get $k)) (then (return (i32.const 1))))
        (local.set $src (i32.add (local.get $src) (i32.const 2)))
        (br $next)))
    (i32.const 0))
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

  ;; memory[at, end) begins with memory[part, part + length) (at most 32 bytes): the index
  ;; after it, or -1. Sixteen bytes are compared at once (those past the end are not looked at).
  (func $expect (param $at i32) (param $end i32) (param $part i32) (param $length i32) (result i32)
    (local $head i32)
    (if (i32.or (i32.lt_s (local.get $at) (i32.const 0)) (i32.gt_s (i32.add (local.get $at) (local.get $length)) (local.get $end)))
      (then (return (i32.const -1))))
    (local.set $head (select (i32.const 16) (local.get $length) (i32.gt_u (local.get $length) (i32.const 16))))
    (if (i32.ne (i32.and (i8x16.bitmask (i8x16.eq (v128.load (local.get $at)) (v128.load (local.get $part))))
                         (i32.sub (i32.shl (i32.const 1) (local.get $head)) (i32.const 1)))
                (i32.sub (i32.shl (i32.const 1) (local.get $head)) (i32.const 1)))
      (then (return (i32.const -1))))
    (if (i32.gt_u (local.get $length) (i32.const 16))
      (then
        (local.set $head (i32.sub (local.get $length) (i32.const 16)))
        (if (i32.ne (i32.and (i8x16.bitmask (i8x16.eq (v128.load offset=16 (local.get $at)) (v128.load offset=16 (local.get $part))))
                             (i32.sub (i32.shl (i32.const 1) (local.get $head)) (i32.const 1)))
                    (i32.sub (i32.shl (i32.const 1) (local.get $head)) (i32.const 1)))
          (then (return (i32.const -1))))))
    (i32.add (local.get $at) (local.get $length)))
  ;; Where the string from $at closes (the index of its closing quote, or of the backslash
  ;; before it), or -1: at an escape of its own, or at the end. Sixteen bytes a turn.
  (func $stringEnd (param $at i32) (param $end i32) (param $escaped i32) (result i32)
    (local $k i32)
    (if (i32.lt_s (local.get $at) (i32.const 0)) (then (return (i32.const -1))))
    (loop $wide
      (if (i32.ge_u (local.get $at) (local.get $end)) (then (return (i32.const -1))))
      (local.set $k (i8x16.bitmask (v128.or (i8x16.eq (v128.load (local.get $at)) (i8x16.splat (i32.const 0x22)))
                                            (i8x16.eq (v128.load (local.get $at)) (i8x16.splat (i32.const 0x5c))))))
      (if (i32.eqz (local.get $k))
        (then
          (local.set $at (i32.add (local.get $at) (i32.const 16)))
          (br $wide))))
    (local.set $at (i32.add (local.get $at) (i32.ctz (local.get $k))))
    (if (i32.ge_u (local.get $at) (local.get $end)) (then (return (i32.const -1))))
    (if (i32.eq (i32.load8_u (local.get $at)) (i32.const 0x5c))
      (then
        (return (select (local.get $at) (i32.const -1)
          (i32.and (local.get $escaped)
            (i32.and (i32.lt_u (i32.add (local.get $at) (i32.const 1)) (local.get $end))
                     (i32.eq (i32.load8_u offset=1 (local.get $at)) (i32.const 0x22))))))))
    (select (i32.const -1) (local.get $at) (local.get $escaped)))
  ;; Past the spaces and tabs from $at.
  (func $skipSpace (param $at i32) (param $end i32) (result i32)
    (local $b i32)
    (if (i32.lt_s (local.get $at) (i32.const 0)) (then (return (i32.const -1))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $at) (local.get $end)))
        (local.set $b (i32.load8_u (local.get $at)))
        (br_if $done (i32.and (i32.ne (local.get $b) (i32.const 0x20)) (i32.ne (local.get $b) (i32.const 0x09))))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $next)))
    (local.get $at))
  ;; Two ASCII digits at $at as a number, or -1.
  (func $twoDigits (param $at i32) (result i32)
    (local $tens i32) (local $ones i32)
    (local.set $tens (i32.sub (i32.load8_u (local.get $at)) (i32.const 0x30)))
    (local.set $ones (i32.sub (i32.load8_u offset=1 (local.get $at)) (i32.const 0x30)))
    (select (i32.const -1) (i32.add (i32.mul (local.get $tens) (i32.const 10)) (local.get $ones))
      (i32.or (i32.gt_u (local.get $tens) (i32.const 9)) (i32.gt_u (local.get $ones) (i32.const 9)))))
  ;; The last time read whole: its bytes (lastTime), its length, and its minute's start in
  ;; milliseconds. A time of the same minute and zone (most lines' is the line before's) is
  ;; read by its seconds and milliseconds only.
  (global $lastTimeLength (mut i32) (i32.const 0))
  (global $lastMinute (mut f64) (f64.const 0))
  ;; The time memory[src, end) in milliseconds since the epoch, when it is written as
  ;; parseIsoMillis reads it (iso-time.ts: 2026-11-22T10:00:00.123 then Z, +00:00 or +0000,
  ;; a day that is in its month); else NaN.
  (func $isoMillis (param $src i32) (param $end i32) (result f64)
    (local $length i32) (local $second i32) (local $centis i32) (local $milli i32) (local $mask i32) (local $ms f64)
    (local.set $length (i32.sub (local.get $end) (local.get $src)))
    (if (i32.and (i32.eq (local.get $length) (global.get $lastTimeLength))
                 (i8x16.all_true (i8x16.eq (v128.load (local.get $src)) (v128.load (i32.const @lastTime)))))
      (then
        ;; Of the bytes from 16 on, all but the seconds and milliseconds: `:`, `.`, the zone.
        (local.set $mask (i32.and (i32.sub (i32.shl (i32.const 1) (i32.sub (local.get $length) (i32.const 16))) (i32.const 1)) (i32.const 0xffffff89)))
        (if (i32.eq (i32.and (i8x16.bitmask (i8x16.eq (v128.load offset=16 (local.get $src)) (v128.load (i32.const @lastTime+16)))) (local.get $mask)) (local.get $mask))
          (then
            (local.set $second (call $twoDigits (i32.add (local.get $src) (i32.const 17))))
            (local.set $centis (call $twoDigits (i32.add (local.get $src) (i32.const 20))))
            (local.set $milli (i32.sub (i32.load8_u offset=22 (local.get $src)) (i32.const 0x30)))
            (if (i32.and (i32.le_u (local.get $second) (i32.const 59)) (i32.and (i32.ge_s (local.get $centis) (i32.const 0)) (i32.le_u (local.get $milli) (i32.const 9))))
              (then
                (return (f64.add (global.get $lastMinute)
                  (f64.convert_i32_s (i32.add (i32.mul (local.get $second) (i32.const 1000)) (i32.add (i32.mul (local.get $centis) (i32.const 10)) (local.get $milli))))))))))))
    (local.set $ms (call $isoMillisRead (local.get $src) (local.get $end)))
    ;; Not NaN: remembered.
    (if (f64.eq (local.get $ms) (local.get $ms))
      (then
        (v128.store (i32.const @lastTime) (v128.load (local.get $src)))
        (v128.store (i32.const @lastTime+16) (v128.load offset=16 (local.get $src)))
        (global.set $lastTimeLength (local.get $length))
        (global.set $lastMinute (f64.sub (local.get $ms)
          (f64.convert_i32_s (i32.add (i32.mul (call $twoDigits (i32.add (local.get $src) (i32.const 17))) (i32.const 1000))
                                      (i32.add (i32.mul (call $twoDigits (i32.add (local.get $src) (i32.const 20))) (i32.const 10))
                                               (i32.sub (i32.load8_u offset=22 (local.get $src)) (i32.const 0x30)))))))))
    (local.get $ms))
  ;; The time read whole (isoMillis).
  (func $isoMillisRead (param $src i32) (param $end i32) (result f64)
    (local $length i32) (local $year i32) (local $month i32) (local $date i32) (local $hour i32)
    (local $minute i32) (local $second i32) (local $centis i32) (local $milli i32) (local $zone i32)
    (local $offset i32) (local $hours i32) (local $minutes i32) (local $last i32)
    (local $y i32) (local $era i32) (local $yoe i32) (local $doe i32)
    (local.set $length (i32.sub (local.get $end) (local.get $src)))
    (if (i32.and (i32.ne (local.get $length) (i32.const 24))
                 (i32.and (i32.ne (local.get $length) (i32.const 28)) (i32.ne (local.get $length) (i32.const 29))))
      (then (return (f64.const nan))))
    (if (i32.or (i32.or (i32.ne (i32.load8_u offset=4 (local.get $src)) (i32.const 0x2d)) (i32.ne (i32.load8_u offset=7 (local.get $src)) (i32.const 0x2d)))
                (i32.or (i32.or (i32.ne (i32.load8_u offset=10 (local.get $src)) (i32.const 0x54)) (i32.ne (i32.load8_u offset=13 (local.get $src)) (i32.const 0x3a)))
                        (i32.or (i32.ne (i32.load8_u offset=16 (local.get $src)) (i32.const 0x3a)) (i32.ne (i32.load8_u offset=19 (local.get $src)) (i32.const 0x2e)))))
      (then (return (f64.const nan))))
    (local.set $year (call $twoDigits (local.get $src)))
    (local.set $y (call $twoDigits (i32.add (local.get $src) (i32.const 2))))
    (local.set $month (call $twoDigits (i32.add (local.get $src) (i32.const 5))))
    (local.set $date (call $twoDigits (i32.add (local.get $src) (i32.const 8))))
    (local.set $hour (call $twoDigits (i32.add (local.get $src) (i32.const 11))))
    (local.set $minute (call $twoDigits (i32.add (local.get $src) (i32.const 14))))
    (local.set $second (call $twoDigits (i32.add (local.get $src) (i32.const 17))))
    (local.set $centis (call $twoDigits (i32.add (local.get $src) (i32.const 20))))
    (local.set $milli (i32.sub (i32.load8_u offset=22 (local.get $src)) (i32.const 0x30)))
    ;; -1 in any of them makes the or negative.
    (if (i32.lt_s (i32.or (i32.or (i32.or (local.get $year) (local.get $y)) (i32.or (local.get $month) (local.get $date)))
                          (i32.or (i32.or (local.get $hour) (local.get $minute)) (i32.or (local.get $second) (local.get $centis))))
                  (i32.const 0))
      (then (return (f64.const nan))))
    (local.set $year (i32.add (i32.mul (local.get $year) (i32.const 100)) (local.get $y)))
    (if (i32.or (i32.or (i32.gt_u (local.get $milli) (i32.const 9)) (i32.gt_u (local.get $hour) (i32.const 23)))
                (i32.or (i32.gt_u (local.get $minute) (i32.const 59)) (i32.gt_u (local.get $second) (i32.const 59))))
      (then (return (f64.const nan))))
    ;; The month's last day: 30 for April, June, September, November; February's by the leap year.
    (local.set $last (i32.const 31))
    (if (i32.or (i32.or (i32.eq (local.get $month) (i32.const 4)) (i32.eq (local.get $month) (i32.const 6)))
                (i32.or (i32.eq (local.get $month) (i32.const 9)) (i32.eq (local.get $month) (i32.const 11))))
      (then (local.set $last (i32.const 30))))
    (if (i32.eq (local.get $month) (i32.const 2))
      (then (local.set $last (select (i32.const 29) (i32.const 28)
        (i32.or (i32.and (i32.eqz (i32.rem_u (local.get $year) (i32.const 4))) (i32.ne (i32.rem_u (local.get $year) (i32.const 100)) (i32.const 0)))
                (i32.eqz (i32.rem_u (local.get $year) (i32.const 400))))))))
    (if (i32.or (i32.or (i32.eqz (local.get $month)) (i32.gt_u (local.get $month) (i32.const 12)))
                (i32.or (i32.eqz (local.get $date)) (i32.gt_u (local.get $date) (local.get $last))))
      (then (return (f64.const nan))))
    (local.set $zone (i32.load8_u offset=23 (local.get $src)))
    (if (i32.eq (local.get $length) (i32.const 24))
      (then (if (i32.ne (local.get $zone) (i32.const 0x5a)) (then (return (f64.const nan)))))
      (else
        (local.set $hours (call $twoDigits (i32.add (local.get $src) (i32.const 24))))
        (local.set $minutes (call $twoDigits (i32.sub (i32.add (local.get $src) (local.get $length)) (i32.const 2))))
        (if (i32.or (i32.or (i32.and (i32.ne (local.get $zone) (i32.const 0x2b)) (i32.ne (local.get $zone) (i32.const 0x2d)))
                            (i32.and (i32.eq (local.get $length) (i32.const 29)) (i32.ne (i32.load8_u offset=26 (local.get $src)) (i32.const 0x3a))))
                    (i32.or (i32.gt_u (local.get $hours) (i32.const 23)) (i32.gt_u (local.get $minutes) (i32.const 59))))
          (then (return (f64.const nan))))
        (local.set $offset (i32.mul (i32.add (i32.mul (local.get $hours) (i32.const 60)) (local.get $minutes)) (i32.const 60000)))
        (if (i32.eq (local.get $zone) (i32.const 0x2d)) (then (local.set $offset (i32.sub (i32.const 0) (local.get $offset)))))))
    ;; Days since 1970-01-01 (H. Hinnant's days_from_civil), the year starting in March.
    (local.set $y (i32.sub (local.get $year) (i32.le_u (local.get $month) (i32.const 2))))
    (local.set $era (i32.div_s (select (local.get $y) (i32.sub (local.get $y) (i32.const 399)) (i32.ge_s (local.get $y) (i32.const 0))) (i32.const 400)))
    (local.set $yoe (i32.sub (local.get $y) (i32.mul (local.get $era) (i32.const 400))))
    (local.set $doe (i32.add
      (i32.add (i32.mul (local.get $yoe) (i32.const 365)) (i32.sub (i32.div_u (local.get $yoe) (i32.const 4)) (i32.div_u (local.get $yoe) (i32.const 100))))
      (i32.sub (i32.add (i32.div_u (i32.add (i32.mul (i32.const 153)
                                                     (select (i32.sub (local.get $month) (i32.const 3)) (i32.add (local.get $month) (i32.const 9)) (i32.gt_u (local.get $month) (i32.const 2))))
                                            (i32.const 2))
                                   (i32.const 5))
                        (local.get $date))
               (i32.const 1))))
    (f64.add
      (f64.mul (f64.convert_i32_s (i32.sub (i32.add (i32.mul (local.get $era) (i32.const 146097)) (local.get $doe)) (i32.const 719468))) (f64.const 86400000))
      (f64.convert_i32_s (i32.sub
        (i32.add (i32.add (i32.mul (local.get $hour) (i32.const 3600000)) (i32.mul (local.get $minute) (i32.const 60000)))
                 (i32.add (i32.mul (local.get $second) (i32.const 1000)) (i32.add (i32.mul (local.get $centis) (i32.const 10)) (local.get $milli))))
        (local.get $offset)))))
  ;; Texts kept by their bytes, so the caller decodes each once: a table of slots (keptTable),
  ;; 16 bytes each (hash, where the bytes are, length, index + 1; 0: free), half of them used at
  ;; the most, and the bytes (keptBytes); kernel-layout.ts, KEPT_TEXTS.
  (global $keptTexts (mut i32) (i32.const 0))
  (global $keptBytesEnd (mut i32) (i32.const @keptBytes))
  ;; A hash of memory[src, end) from its length and its first and last eight bytes: texts
  ;; that share all three are told apart by comparing them.
  (func $hash (param $src i32) (param $end i32) (result i32)
    (local $length i32) (local $h i64)
    (local.set $length (i32.sub (local.get $end) (local.get $src)))
    (if (i32.ge_u (local.get $length) (i32.const 8))
      (then
        (local.set $h (i64.xor (i64.load (local.get $src))
                               (i64.mul (i64.load (i32.sub (local.get $end) (i32.const 8))) (i64.const 0x9e3779b97f4a7c15)))))
      (else
        ;; Only the text's bytes: those after it are another line's.
        (local.set $h (i64.and (i64.load (local.get $src))
                               (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (i32.shl (local.get $length) (i32.const 3)))) (i64.const 1))))))
    (local.set $h (i64.mul (i64.xor (local.get $h) (i64.extend_i32_u (local.get $length))) (i64.const 0xbf58476d1ce4e5b9)))
    (i32.wrap_i64 (i64.xor (local.get $h) (i64.shr_u (local.get $h) (i64.const 32)))))
  ;; True when memory[a, a + length) and memory[b, b + length) hold the same bytes; sixteen
  ;; compared at once (those past the length are not looked at).
  (func $sameBytes (param $a i32) (param $b i32) (param $length i32) (result i32)
    (local $mask i32)
    (loop $wide
      (if (i32.ge_u (local.get $length) (i32.const 16))
        (then
          (if (i32.eqz (i8x16.all_true (i8x16.eq (v128.load (local.get $a)) (v128.load (local.get $b))))) (then (return (i32.const 0))))
          (local.set $a (i32.add (local.get $a) (i32.const 16)))
          (local.set $b (i32.add (local.get $b) (i32.const 16)))
          (local.set $length (i32.sub (local.get $length) (i32.const 16)))
          (br $wide))))
    (local.set $mask (i32.sub (i32.shl (i32.const 1) (local.get $length)) (i32.const 1)))
    (i32.eq (i32.and (i8x16.bitmask (i8x16.eq (v128.load (local.get $a)) (v128.load (local.get $b)))) (local.get $mask)) (local.get $mask)))
  ;; The slot of memory[src, end) in the table: the one holding it, or the free one where it goes.
  (func $slotOf (param $src i32) (param $end i32) (param $hash i32) (result i32)
    (local $slot i32) (local $entry i32) (local $length i32)
    (local.set $length (i32.sub (local.get $end) (local.get $src)))
    (local.set $slot (i32.and (local.get $hash) (i32.const @keptTexts.slotMask)))
    (loop $probe
      (local.set $entry (i32.add (i32.const @keptTable) (i32.shl (local.get $slot) (i32.const 4))))
      (if (i32.eqz (i32.load offset=12 (local.get $entry))) (then (return (local.get $entry))))
      (if (i32.and (i32.eq (i32.load (local.get $entry)) (local.get $hash)) (i32.eq (i32.load offset=8 (local.get $entry)) (local.get $length)))
        (then
          (if (call $sameBytes (local.get $src) (i32.load offset=4 (local.get $entry)) (local.get $length))
            (then (return (local.get $entry))))))
      (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (i32.const @keptTexts.slotMask)))
      (br $probe))
    (unreachable))
  ;; The index of the text memory[src, end) when it is kept, else -1.
  (func $keptIndex (param $src i32) (param $end i32) (result i32)
    (i32.sub (i32.load offset=12 (call $slotOf (local.get $src) (local.get $end) (call $hash (local.get $src) (local.get $end)))) (i32.const 1)))
  ;; Keeps the text memory[src, end) (at most KEPT_TEXTS.longest bytes): its index, or -1 when
  ;; there is no more room (the caller then decodes it each time).
  (func (export "keepText") (param $src i32) (param $end i32) (result i32)
    (local $entry i32) (local $hash i32) (local $length i32)
    (local.set $length (i32.sub (local.get $end) (local.get $src)))
    (local.set $hash (call $hash (local.get $src) (local.get $end)))
    (local.set $entry (call $slotOf (local.get $src) (local.get $end) (local.get $hash)))
    (if (i32.load offset=12 (local.get $entry)) (then (return (i32.sub (i32.load offset=12 (local.get $entry)) (i32.const 1)))))
    (if (i32.or (i32.or (i32.ge_u (global.get $keptTexts) (i32.const @keptTexts.most)) (i32.gt_u (local.get $length) (i32.const @keptTexts.longest)))
                (i32.gt_u (i32.add (global.get $keptBytesEnd) (local.get $length)) (i32.const @keptBytes.end)))
      (then (return (i32.const -1))))
    (memory.copy (global.get $keptBytesEnd) (local.get $src) (local.get $length))
    (i32.store (local.get $entry) (local.get $hash))
    (i32.store offset=4 (local.get $entry) (global.get $keptBytesEnd))
    (i32.store offset=8 (local.get $entry) (local.get $length))
    (global.set $keptTexts (i32.add (global.get $keptTexts) (i32.const 1)))
    (i32.store offset=12 (local.get $entry) (global.get $keptTexts))
    (global.set $keptBytesEnd (i32.add (global.get $keptBytesEnd) (local.get $length)))
    (i32.sub (global.get $keptTexts) (i32.const 1)))
  ;; A string's value from $at (just past its opening quote): its bounds and its kept index
  ;; stored at $slot; returns the index of its closing quote, or -1.
  (func $string (param $at i32) (param $end i32) (param $escaped i32) (param $slot i32) (result i32)
    (local $close i32)
    (local.set $close (call $stringEnd (local.get $at) (local.get $end) (local.get $escaped)))
    (i32.store (local.get $slot) (local.get $at))
    (i32.store offset=4 (local.get $slot) (local.get $close))
    (if (i32.ge_s (local.get $close) (i32.const 0))
      (then (i32.store offset=8 (local.get $slot) (call $keptIndex (local.get $at) (local.get $close)))))
    (local.get $close))
  (func (export "serverHead") (param $src i32) (param $end i32) (param $escaped i32) (result i32)
    (local $at i32) (local $id i32) (local $digits i32) (local $b i32) (local $timeEnd i32)
    (local.set $at (call $expect (local.get $src) (local.get $end) (select (i32.const @escapedPunctuation.open) (i32.const @punctuation.open) (local.get $escaped)) (select (i32.const @escapedPunctuation.open.bytes) (i32.const @punctuation.open.bytes) (local.get $escaped))))
    (if (i32.lt_s (local.get $at) (i32.const 0)) (then (return (i32.const 0))))
    ;; The time: not empty.
    (local.set $timeEnd (call $stringEnd (local.get $at) (local.get $end) (local.get $escaped)))
    (if (i32.le_s (local.get $timeEnd) (local.get $at)) (then (return (i32.const 0))))
    (i32.store (i32.const @head.time) (local.get $at))
    (i32.store (i32.const @head.time+4) (local.get $timeEnd))
    (local.set $at (call $skipSpace (call $expect (local.get $timeEnd) (local.get $end) (select (i32.const @escapedPunctuation.timeClose) (i32.const @punctuation.timeClose) (local.get $escaped)) (select (i32.const @escapedPunctuation.timeClose.bytes) (i32.const @punctuation.timeClose.bytes) (local.get $escaped))) (local.get $end)))
    (local.set $at (call $expect (local.get $at) (local.get $end) (select (i32.const @escapedPunctuation.severity) (i32.const @punctuation.severity) (local.get $escaped)) (select (i32.const @escapedPunctuation.severity.bytes) (i32.const @punctuation.severity.bytes) (local.get $escaped))))
    (local.set $at (call $string (local.get $at) (local.get $end) (local.get $escaped) (i32.const @head.severity)))
    (local.set $at (call $skipSpace (call $expect (local.get $at) (local.get $end) (select (i32.const @escapedPunctuation.textClose) (i32.const @punctuation.textClose) (local.get $escaped)) (select (i32.const @escapedPunctuation.textClose.bytes) (i32.const @punctuation.textClose.bytes) (local.get $escaped))) (local.get $end)))
    (local.set $at (call $expect (local.get $at) (local.get $end) (select (i32.const @escapedPunctuation.component) (i32.const @punctuation.component) (local.get $escaped)) (select (i32.const @escapedPunctuation.component.bytes) (i32.const @punctuation.component.bytes) (local.get $escaped))))
    (local.set $at (call $string (local.get $at) (local.get $end) (local.get $escaped) (i32.const @head.component)))
    (local.set $at (call $skipSpace (call $expect (local.get $at) (local.get $end) (select (i32.const @escapedPunctuation.textClose) (i32.const @punctuation.textClose) (local.get $escaped)) (select (i32.const @escapedPunctuation.textClose.bytes) (i32.const @punctuation.textClose.bytes) (local.get $escaped))) (local.get $end)))
    (local.set $at (call $expect (local.get $at) (local.get $end) (select (i32.const @escapedPunctuation.id) (i32.const @punctuation.id) (local.get $escaped)) (select (i32.const @escapedPunctuation.id.bytes) (i32.const @punctuation.id.bytes) (local.get $escaped))))
    (if (i32.lt_s (local.get $at) (i32.const 0)) (then (return (i32.const 0))))
    ;; The id: one to nine digits, then a comma.
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $at) (local.get $end)))
        (local.set $b (i32.sub (i32.load8_u (local.get $at)) (i32.const 0x30)))
        (br_if $done (i32.gt_u (local.get $b) (i32.const 9)))
        (local.set $id (i32.add (i32.mul (local.get $id) (i32.const 10)) (local.get $b)))
        (local.set $digits (i32.add (local.get $digits) (i32.const 1)))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $next)))
    (if (i32.or (i32.eqz (local.get $digits)) (i32.gt_u (local.get $digits) (i32.const 9))) (then (return (i32.const 0))))
    (if (i32.ge_u (local.get $at) (local.get $end)) (then (return (i32.const 0))))
    (if (i32.ne (i32.load8_u (local.get $at)) (i32.const 0x2c)) (then (return (i32.const 0))))
    (i32.store (i32.const @head.id) (local.get $id))
    (local.set $at (call $skipSpace (i32.add (local.get $at) (i32.const 1)) (local.get $end)))
    (local.set $at (call $expect (local.get $at) (local.get $end) (select (i32.const @escapedPunctuation.context) (i32.const @punctuation.context) (local.get $escaped)) (select (i32.const @escapedPunctuation.context.bytes) (i32.const @punctuation.context.bytes) (local.get $escaped))))
    (i32.store (i32.const @head.context) (local.get $at))
    (local.set $at (call $stringEnd (local.get $at) (local.get $end) (local.get $escaped)))
    (i32.store (i32.const @head.context+4) (local.get $at))
    (local.set $at (call $skipSpace (call $expect (local.get $at) (local.get $end) (select (i32.const @escapedPunctuation.textClose) (i32.const @punctuation.textClose) (local.get $escaped)) (select (i32.const @escapedPunctuation.textClose.bytes) (i32.const @punctuation.textClose.bytes) (local.get $escaped))) (local.get $end)))
    (local.set $at (call $expect (local.get $at) (local.get $end) (select (i32.const @escapedPunctuation.message) (i32.const @punctuation.message) (local.get $escaped)) (select (i32.const @escapedPunctuation.message.bytes) (i32.const @punctuation.message.bytes) (local.get $escaped))))
    (local.set $at (call $string (local.get $at) (local.get $end) (local.get $escaped) (i32.const @head.message)))
    (if (i32.lt_s (local.get $at) (i32.const 0)) (then (return (i32.const 0))))
    ;; Where the head ends: past the message's closing quote.
    (i32.store (i32.const @head.end) (i32.add (i32.add (local.get $at) (i32.const 1)) (local.get $escaped)))
    (f64.store (i32.const @headMillis) (call $isoMillis (i32.load (i32.const @head.time)) (i32.load (i32.const @head.time+4))))
    (i32.const 1))
  ;; True when the quote at $at ends or starts a string: in a line, when an even number of
  ;; backslashes stand before it; in a literal, one more than a multiple of four (one escapes
  ;; the quote for the literal; the others, in pairs, are the line's own backslashes).
  (func $isStringQuote (param $at i32) (param $floor i32) (param $escaped i32) (result i32)
    (local $i i32)
    (local.set $i (local.get $at))
    (block $done
      (loop $back
        (br_if $done (i32.le_u (local.get $i) (local.get $floor)))
        (br_if $done (i32.ne (i32.load8_u offset=0 (i32.sub (local.get $i) (i32.const 1))) (i32.const 0x5c)))
        (local.set $i (i32.sub (local.get $i) (i32.const 1)))
        (br $back)))
    (local.set $i (i32.sub (local.get $at) (local.get $i)))
    (select (i32.eq (i32.and (local.get $i) (i32.const 3)) (i32.const 1)) (i32.eqz (i32.and (local.get $i) (i32.const 1))) (local.get $escaped)))
  ;; Where the string whose inside starts at $at closes: the start of its closing quote (the
  ;; backslash before it, in a literal), or -1.
  (func $stringClose (param $at i32) (param $end i32) (param $floor i32) (param $escaped i32) (result i32)
    (local $k i32)
    (loop $wide
      (if (i32.ge_u (local.get $at) (local.get $end)) (then (return (i32.const -1))))
      (local.set $k (i8x16.bitmask (i8x16.eq (v128.load (local.get $at)) (i8x16.splat (i32.const 0x22)))))
      (if (i32.eqz (local.get $k))
        (then
          (local.set $at (i32.add (local.get $at) (i32.const 16)))
          (br $wide)))
      (local.set $at (i32.add (local.get $at) (i32.ctz (local.get $k))))
      (if (i32.ge_u (local.get $at) (local.get $end)) (then (return (i32.const -1))))
      (if (call $isStringQuote (local.get $at) (local.get $floor) (local.get $escaped))
        (then (return (i32.sub (local.get $at) (local.get $escaped)))))
      (local.set $at (i32.add (local.get $at) (i32.const 1)))
      (br $wide))
    (unreachable))
  ;; Past the JSON value starting at $at, or -1. Objects and arrays are skipped by their
  ;; brackets, their strings whole.
  (func $valueEnd (param $at i32) (param $end i32) (param $floor i32) (param $escaped i32) (result i32)
    (local $b i32) (local $k i32) (local $depth i32) (local $v v128)
    (if (i32.ge_u (local.get $at) (local.get $end)) (then (return (i32.const -1))))
    (local.set $b (i32.load8_u (local.get $at)))
    (if (i32.and (i32.eq (local.get $b) (select (i32.const 0x5c) (i32.const 0x22) (local.get $escaped)))
                 (i32.or (i32.eqz (local.get $escaped)) (i32.eq (i32.load8_u offset=1 (local.get $at)) (i32.const 0x22))))
      (then
        (local.set $at (call $stringClose (i32.add (i32.add (local.get $at) (i32.const 1)) (local.get $escaped)) (local.get $end) (local.get $floor) (local.get $escaped)))
        (return (select (i32.const -1) (i32.add (i32.add (local.get $at) (i32.const 1)) (local.get $escaped)) (i32.lt_s (local.get $at) (i32.const 0))))))
    (if (i32.or (i32.eq (local.get $b) (i32.const 0x7b)) (i32.eq (local.get $b) (i32.const 0x5b)))
      (then
        (loop $wide
          (if (i32.ge_u (local.get $at) (local.get $end)) (then (return (i32.const -1))))
          (local.set $v (v128.load (local.get $at)))
          (local.set $k (i8x16.bitmask (v128.or
            (v128.or (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x22)))
                     (i8x16.eq (v128.and (local.get $v) (i8x16.splat (i32.const 0xdf))) (i8x16.splat (i32.const 0x5b))))
            (i8x16.eq (v128.and (local.get $v) (i8x16.splat (i32.const 0xdf))) (i8x16.splat (i32.const 0x5d))))))
          (if (i32.eqz (local.get $k))
            (then
              (local.set $at (i32.add (local.get $at) (i32.const 16)))
              (br $wide)))
          (local.set $at (i32.add (local.get $at) (i32.ctz (local.get $k))))
          (if (i32.ge_u (local.get $at) (local.get $end)) (then (return (i32.const -1))))
          (local.set $b (i32.load8_u (local.get $at)))
          (if (i32.eq (local.get $b) (i32.const 0x22))
            (then
              ;; Outside strings every quote opens one.
              (if (i32.eqz (call $isStringQuote (local.get $at) (local.get $floor) (local.get $escaped))) (then (return (i32.const -1))))
              (local.set $at (call $stringClose (i32.add (local.get $at) (i32.const 1)) (local.get $end) (local.get $floor) (local.get $escaped)))
              (if (i32.lt_s (local.get $at) (i32.const 0)) (then (return (i32.const -1))))
              (local.set $at (i32.add (i32.add (local.get $at) (i32.const 1)) (local.get $escaped))))
            (else
              (if (i32.eq (i32.and (local.get $b) (i32.const 0xdf)) (i32.const 0x5b))
                (then (local.set $depth (i32.add (local.get $depth) (i32.const 1))))
                (else
                  (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))
                  (if (i32.eqz (local.get $depth)) (then (return (i32.add (local.get $at) (i32.const 1)))))))
              (local.set $at (i32.add (local.get $at) (i32.const 1)))))
          (br $wide))))
    ;; A number, true, false or null: up to the next separator.
    (local.set $k (local.get $at))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (local.get $end)))
        (local.set $b (i32.load8_u (local.get $k)))
        (br_if $done (i32.or (i32.or (i32.eq (local.get $b) (i32.const 0x2c)) (i32.eq (local.get $b) (i32.const 0x7d)))
                             (i32.or (i32.eq (local.get $b) (i32.const 0x5d)) (i32.le_u (local.get $b) (i32.const 0x20)))))
        (br_if $done (i32.eq (local.get $b) (i32.const 0x5c)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $next)))
    (select (i32.const -1) (local.get $k) (i32.eq (local.get $k) (local.get $at))))
  (func (export "objectMembers") (param $src i32) (param $end i32) (param $escaped i32) (param $max i32) (result i32)
    (local $at i32) (local $count i32) (local $key i32) (local $keyEnd i32) (local $value i32) (local $valueEnd i32) (local $out i32)
    (if (i32.or (i32.ge_u (local.get $src) (local.get $end)) (i32.ne (i32.load8_u (local.get $src)) (i32.const 0x7b))) (then (return (i32.const -1))))
    (local.set $at (call $skipSpace (i32.add (local.get $src) (i32.const 1)) (local.get $end)))
    (if (i32.and (i32.lt_u (local.get $at) (local.get $end)) (i32.eq (i32.load8_u (local.get $at)) (i32.const 0x7d))) (then (return (i32.const 0))))
    (local.set $out (i32.const @membersAnswer))
    (loop $member
      ;; The key: a string without escapes of its own. Its opening quote is the second byte of
      ;; the head's first punctuation.
      (local.set $at (call $expect (local.get $at) (local.get $end) (select (i32.const @escapedPunctuation.open+1) (i32.const @punctuation.open+1) (local.get $escaped)) (i32.add (local.get $escaped) (i32.const 1))))
      (if (i32.lt_s (local.get $at) (i32.const 0)) (then (return (i32.const -1))))
      (local.set $key (local.get $at))
      (local.set $keyEnd (call $stringEnd (local.get $at) (local.get $end) (local.get $escaped)))
      (if (i32.lt_s (local.get $keyEnd) (i32.const 0)) (then (return (i32.const -1))))
      (local.set $at (call $skipSpace (i32.add (i32.add (local.get $keyEnd) (i32.const 1)) (local.get $escaped)) (local.get $end)))
      (if (i32.or (i32.ge_u (local.get $at) (local.get $end)) (i32.ne (i32.load8_u (local.get $at)) (i32.const 0x3a))) (then (return (i32.const -1))))
      (local.set $value (call $skipSpace (i32.add (local.get $at) (i32.const 1)) (local.get $end)))
      (local.set $valueEnd (call $valueEnd (local.get $value) (local.get $end) (local.get $src) (local.get $escaped)))
      (if (i32.lt_s (local.get $valueEnd) (i32.const 0)) (then (return (i32.const -1))))
      (i32.store (local.get $out) (local.get $key))
      (i32.store offset=4 (local.get $out) (local.get $keyEnd))
      (i32.store offset=8 (local.get $out) (local.get $value))
      (i32.store offset=12 (local.get $out) (local.get $valueEnd))
      (local.set $out (i32.add (local.get $out) (i32.const 16)))
      (local.set $count (i32.add (local.get $count) (i32.const 1)))
      (if (i32.ge_u (local.get $count) (local.get $max)) (then (return (local.get $count))))
      (local.set $at (call $skipSpace (local.get $valueEnd) (local.get $end)))
      (if (i32.ge_u (local.get $at) (local.get $end)) (then (return (i32.const -1))))
      (if (i32.eq (i32.load8_u (local.get $at)) (i32.const 0x7d)) (then (return (local.get $count))))
      (if (i32.ne (i32.load8_u (local.get $at)) (i32.const 0x2c)) (then (return (i32.const -1))))
      (local.set $at (call $skipSpace (i32.add (local.get $at) (i32.const 1)) (local.get $end)))
      (br $member))
    (unreachable))
  ;; A bracketed field at $at, `[…]`: its inside's start and end stored at $slot and $slot + 4,
  ;; and its kept index at $slot + 8 when $kept; returns the index past `]`, or -1 (no field, or
  ;; a backslash or a byte from 0x80 in it).
  (func $bracketed (param $at i32) (param $end i32) (param $slot i32) (param $kept i32) (result i32)
    (local $k i32) (local $v v128) (local $start i32)
    (if (i32.or (i32.lt_s (local.get $at) (i32.const 0)) (i32.ge_u (local.get $at) (local.get $end))) (then (return (i32.const -1))))
    (if (i32.ne (i32.load8_u (local.get $at)) (i32.const 0x5b)) (then (return (i32.const -1))))
    (local.set $at (i32.add (local.get $at) (i32.const 1)))
    (local.set $start (local.get $at))
    (loop $wide
      (if (i32.ge_u (local.get $at) (local.get $end)) (then (return (i32.const -1))))
      (local.set $v (v128.load (local.get $at)))
      (local.set $k (i8x16.bitmask (v128.or
        (v128.or (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x5d))) (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x5c))))
        (i8x16.lt_s (local.get $v) (i8x16.splat (i32.const 0))))))
      (if (i32.eqz (local.get $k))
        (then
          (local.set $at (i32.add (local.get $at) (i32.const 16)))
          (br $wide))))
    (local.set $at (i32.add (local.get $at) (i32.ctz (local.get $k))))
    (if (i32.ge_u (local.get $at) (local.get $end)) (then (return (i32.const -1))))
    (if (i32.ne (i32.load8_u (local.get $at)) (i32.const 0x5d)) (then (return (i32.const -1))))
    (i32.store (local.get $slot) (local.get $start))
    (i32.store offset=4 (local.get $slot) (local.get $at))
    (if (local.get $kept) (then (i32.store offset=8 (local.get $slot) (call $keptIndex (local.get $start) (local.get $at)))))
    (i32.add (local.get $at) (i32.const 1)))
  ;; A space at $at: the index past it, or -1 (also when $at is -1: no field before it). The
  ;; byte is loaded only where there is one: an i32.and evaluates both sides, and a load at -1
  ;; traps.
  (func $space (param $at i32) (param $end i32) (result i32)
    (if (i32.or (i32.lt_s (local.get $at) (i32.const 0)) (i32.ge_u (local.get $at) (local.get $end))) (then (return (i32.const -1))))
    (select (i32.add (local.get $at) (i32.const 1)) (i32.const -1) (i32.eq (i32.load8_u (local.get $at)) (i32.const 0x20))))
  (func (export "agentHead") (param $src i32) (param $end i32) (result i32)
    (local $at i32) (local $b i32)
    (local.set $at (call $bracketed (local.get $src) (local.get $end) (i32.const @head.time) (i32.const 0)))
    (if (i32.lt_s (local.get $at) (i32.const 0)) (then (return (i32.const 0))))
    (if (i32.eq (i32.load (i32.const @head.time)) (i32.load (i32.const @head.time+4))) (then (return (i32.const 0))))
    (local.set $at (call $bracketed (call $space (local.get $at) (local.get $end)) (local.get $end) (i32.const @head.severity) (i32.const 1)))
    (local.set $at (call $bracketed (call $space (local.get $at) (local.get $end)) (local.get $end) (i32.const @head.component) (i32.const 1)))
    (if (i32.lt_s (local.get $at) (i32.const 0)) (then (return (i32.const 0))))
    ;; One space or none; any other blank (a tab to form feed, an escape in a literal, a space
    ;; beyond ASCII) is left to the expression, whose \s takes it.
    (if (i32.lt_u (local.get $at) (local.get $end))
      (then
        (local.set $b (i32.load8_u (local.get $at)))
        (if (i32.eq (local.get $b) (i32.const 0x20)) (then (local.set $at (i32.add (local.get $at) (i32.const 1))))
          (else (if (i32.or (i32.or (i32.eq (local.get $b) (i32.const 0x5c)) (i32.ge_u (local.get $b) (i32.const 0x80)))
                            (i32.lt_u (i32.sub (local.get $b) (i32.const 0x09)) (i32.const 5)))
            (then (return (i32.const 0))))))))
    (i32.store (i32.const @head.end) (local.get $at))
    (f64.store (i32.const @headMillis) (call $isoMillis (i32.load (i32.const @head.time)) (i32.load (i32.const @head.time+4))))
    (i32.const 1))
  ;; Each region's start, exported for json-kernels.ts to compare with the layout at load.
  @layoutExports
  )
