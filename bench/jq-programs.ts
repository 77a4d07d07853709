/**
 * jq programs that write what logtype writes, byte for byte, so a row can compare the same work:
 * the bench checks their output against ours on a sample of its input and prints the result.
 * They are written as a jq user would write them (one pass, constants made once), and follow
 * our rules where ours are visible in the output: values cut at 120 characters with a marker,
 * times in UTC, the terminal check once a line and escapes only where it fails, a slow
 * operation's figures first, pre-4.4 text lines read into the same fields.
 *
 * Where jq 1.6 itself cannot write the same bytes, the check says so: it keeps 17 significant
 * digits of an integer (a cursor id above 2^53 comes out rounded) and keeps one of duplicate keys
 * (the server writes some twice).
 */
import fs from 'node:fs';
import path from 'node:path';
import { BENCH_DIR } from './inputs.js';

/** Definitions the programs share. */
const LIBRARY = String.raw`
def paint($open; $close): "\u001b[" + $open + "m" + . + "\u001b[" + $close + "m";
def green: paint("32"; "39");
def gray: paint("90"; "39");
def cyan: paint("36"; "39");
def yellow: paint("33"; "39");
def bold: paint("1"; "22");
def redbadge: paint("97;41"; "39;49");
def hex: [recurse(if . >= 16 then ./16 | floor else empty end)] | reverse | map(. % 16 | "0123456789abcdef"[.:.+1]) | add;
def visible:
  if . == "\n" then "\\n" elif . == "\r" then "\\r" elif . == "\u001b" then "\\e"
  else explode[0] as $c | if $c <= 255 then "\\x" + ($c | hex | if length < 2 then "0" + . else . end) else "\\u{" + ($c | hex) + "}" end
  end;
def unsafe: "[\u0000-\u0008\n-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]";
def esc: if test(unsafe) then gsub("(?<c>" + unsafe + ")"; .c | visible) else . end;
def cut: if length > 120 then .[0:120] + "…(\(length) chars)" else . end;
def levels: {"F": ("FATAL" | redbadge), "E": ("ERROR" | redbadge), "W": ("WARN " | yellow), "I": ("INFO " | green),
  "D": ("DEBUG" | gray), "D1": ("DEBUG" | gray), "D2": ("DEBUG" | gray), "D3": ("DEBUG" | gray), "D4": ("DEBUG" | gray), "D5": ("DEBUG" | gray)};
# An ISO time with its zone, in UTC as pretty writes it: 2026-11-22 03:00:00.005Z
def utc:
  .[20:23] as $ms
  | if endswith("+00:00") or endswith("Z") or endswith("+0000") then .[0:10] + " " + .[11:19]
    else .[23:24] as $sign | (.[24:] | gsub(":"; "")) as $zone
      | (.[0:19] + "Z" | fromdateiso8601) - (if $sign == "-" then -1 else 1 end) * (($zone[0:2] | tonumber) * 3600 + ($zone[2:4] | tonumber) * 60)
      | todate | .[0:10] + " " + .[11:19] end
  | . + "." + $ms + "Z";
def millis_utc: (. / 1000 | floor | todate) as $s | $s[0:10] + " " + $s[11:19] + "." + ((1000 + . % 1000) | tostring)[1:] + "Z";
def when: if type == "string" then utc elif type == "object" then .["$numberLong"] | tonumber | millis_utc else null end;
# A pre-4.4 operation's figures, from its text.
def text_operation:
  (first(capture("^(?<type>command|query|update|remove|insert|getmore|killcursors|delete|write) (?<ns>\\S+) .*?(?<ms>\\d+)ms$")) // null) as $op
  | if $op == null then null else
    {type: $op.type, ns: $op.ns}
    + ((capture(" command: (?<c>\\w+)") | {command: {(.c): null}}) // {})
    + ((capture(" planSummary: (?<p>[A-Z_]+(?: \\{[^}]*\\})?)") | {planSummary: .p}) // {})
    + ([scan("\\b(docsExamined|keysExamined|nreturned|nReturned|nMatched|queryHash|planCacheKey):(\\S+)")
        | {(if .[0] == "nReturned" then "nreturned" else .[0] end): (if .[1] | test("^\\d+$") then .[1] | tonumber else .[1] end)}] | add // {})
    + {durationMillis: ($op.ms | tonumber)} end;
# A pre-4.4 text line's fields, time in UTC as pretty writes it.
def text_record:
  capture("^(?<t>\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(?:\\.\\d+)?(?:Z|[+-]\\d\\d:?\\d\\d)?)\\s+(?<s>[FEWID]\\d?)\\s+(?<c>\\S+)\\s+\\[(?<ctx>[^\\]]*)\\]\\s?(?<msg>.*)$")
  | .t |= utc | .attr = (.msg | text_operation);
# A server line's fields: its JSON, else its text; empty when it is neither.
def record:
  (fromjson? | objects | select((.msg | type) == "string")
    | {t: (.t["$date"] | when), s, c, ctx, msg, attr: (if .truncated then (.attr // {}) + {truncated} + (if has("size") then {size} else {} end) else .attr end)})
  // text_record;
`;

/** `logtype -t mongodb -o pretty --color always --utc`, run with `jq -n -r -f`. */
export const PRETTY_PROGRAM = `${LIBRARY}
levels as $levels | ("mongodb      " | green) as $badge
| inputs | select(.logType == "mongodb") | .contents as $line
| ($line | test(unsafe) or contains("\\\\u") or contains("\\\\n") or contains("\\\\r") or contains("\\\\b") or contains("\\\\f")) as $unsafe
| def e: if $unsafe then esc else . end;
  (first($line | record) // null) as $r
| if $r == null then $badge + " " + ($line | esc)
  else
    ($r.attr | if type == "object" and (.durationMillis | type) == "number" then . else null end) as $slow
    | [$badge + (if $r.t then " " + ($r.t | gray) else "" end),
       ($levels[$r.s // ""] // "     "),
       (if ($r.c // "") != "" then $r.c | e | cyan else empty end),
       (if ($r.ctx // "") != "" then "[" + ($r.ctx | e) + "]" | gray else empty end),
       (if $slow then ("\\($slow.durationMillis)ms" | bold),
          (if ($slow.ns | type) == "string" then $slow.ns | e else empty end),
          (if ($slow.planSummary | type) == "string" then $slow.planSummary | e | if startswith("COLLSCAN") then redbadge else . end else empty end)
        else empty end),
       ($r.msg | e | bold),
       ($r.attr // {} | to_entries[] | select($slow == null or (.key | IN("durationMillis", "ns", "planSummary") | not))
          | ((.key | e) + "=" | gray) + (.value | if type == "string" then . else tojson end | cut | e))]
    | join(" ")
  end
`;

/**
 * `logtype -t mongodb -o json`: a line that is an object, as it is; a pre-4.4 text line in the
 * 4.4 shape; anything else as its entry. Run with `jq -n -r -f`.
 */
export const JSON_PROGRAM = `${LIBRARY}
inputs | select(.logType == "mongodb") | .contents
| if startswith("{") and endswith("}") then .
  else (first(text_record | {t: {"$date": (.t | .[0:10] + "T" + .[11:])}, s, c, ctx, msg} + (if .attr then {attr} else {} end)) // null) as $r
    | if $r then $r | tojson else {logType: "mongodb", contents: .} | tojson end
  end
`;

/** docs/anchors.md §2's one-line rendering: the whole `attr` as JSON, after the head's fields. */
export const ONE_LINE_PROGRAM = 'select(.logType=="mongodb") | .contents | fromjson | "\\(.t["$date"]) \\(.s) \\(.c) [\\(.ctx)] \\(.msg) \\(.attr|tojson)"';

/** The same, writing a line that is not JSON (a pre-4.4 text line) as it is: §2's program stops at the first. */
export const ONE_LINE_TOLERANT_PROGRAM =
  'select(.logType=="mongodb") | .contents | (fromjson? | objects | "\\(.t["$date"]) \\(.s) \\(.c) [\\(.ctx)] \\(.msg) \\(.attr|tojson)") // .';

/** A program written to a file under the bench dir, for `jq -f`: its path. */
export function jqProgramFile(name: string, program: string): string {
  const file = path.join(BENCH_DIR, 'jq', `${name}.jq`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, program);
  return file;
}
