/**
 * ajv-formats' `fullFormats`, one export per format, for generated modules:
 * a module imports only the formats its validators read, and a bundler
 * leaves the rest out (ajv-formats itself is one CommonJS file, kept whole
 * by a bundler: every format's regular expressions and functions). Each
 * piece is the entry of `fullFormats` of the same name, written from
 * ajv-formats 3.0.1's src/formats.ts with the same behaviour, verdict for
 * verdict and comparison for comparison (test/validate/format-checks.test.ts
 * holds each to ajv-formats). ajv-formats stays the reference: compile, and
 * modules written before these pieces, use its `fullFormats`.
 *
 * ajv-formats' `true` entries (`password`, `binary`) are no piece: ajv writes
 * no check for them, and a format table without them passes them as well.
 *
 * Written from ajv-formats 3.0.1 (https://github.com/ajv-validator/ajv-formats),
 * under its MIT licence:
 *
 * MIT License
 *
 * Copyright (c) 2020 Evgeny Poberezkin
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy
 * of this software and associated documentation files (the "Software"), to deal
 * in the Software without restriction, including without limitation the rights
 * to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
 * copies of the Software, and to permit persons to whom the Software is
 * furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in all
 * copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 * IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 * FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
 * AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 * LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
 * OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
 * SOFTWARE.
 */

/** A format of strings with an order (`formatMinimum` and its kin call `compare`). */
export interface ComparedFormat {
  readonly validate: (text: string) => boolean;
  readonly compare: (a: string, b: string) => number | undefined;
}

/** A format of numbers: ajv applies `validate` to numbers only. */
export interface NumberFormat {
  readonly type: "number";
  readonly validate: (value: number) => boolean;
}

// Dates and times: RFC 3339 section 5.6.

function isLeapYear(year: number): boolean {
  // RFC 3339 appendix C
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

const DATE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function date(str: string): boolean {
  const matches = DATE.exec(str);
  if (!matches) return false;
  const year = +matches[1]!;
  const month = +matches[2]!;
  const day = +matches[3]!;
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && isLeapYear(year) ? 29 : DAYS[month]!);
}

function compareDate(d1: string, d2: string): number | undefined {
  if (!(d1 && d2)) return undefined;
  if (d1 > d2) return 1;
  if (d1 < d2) return -1;
  return 0;
}

const TIME = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$/i;

/** ajv-formats' getTime(strictTimeZone)'s function: `time` and `date-time` want a zone, the iso- ones do not. */
function time(str: string, strictTimeZone: boolean): boolean {
  const matches = TIME.exec(str);
  if (!matches) return false;
  const hr = +matches[1]!;
  const min = +matches[2]!;
  const sec = +matches[3]!;
  const tz = matches[4];
  const tzSign = matches[5] === "-" ? -1 : 1;
  const tzH = +(matches[6] || 0);
  const tzM = +(matches[7] || 0);
  if (tzH > 23 || tzM > 59 || (strictTimeZone && !tz)) return false;
  if (hr <= 23 && min <= 59 && sec < 60) return true;
  // A leap second: 23:59:60 in UTC.
  const utcMin = min - tzM * tzSign;
  const utcHr = hr - tzH * tzSign - (utcMin < 0 ? 1 : 0);
  return (utcHr === 23 || utcHr === -1) && (utcMin === 59 || utcMin === -1) && sec < 61;
}

function compareTime(s1: string, s2: string): number | undefined {
  if (!(s1 && s2)) return undefined;
  const t1 = new Date(`2020-01-01T${s1}`).valueOf();
  const t2 = new Date(`2020-01-01T${s2}`).valueOf();
  if (!(t1 && t2)) return undefined;
  return t1 - t2;
}

function compareIsoTime(t1: string, t2: string): number | undefined {
  if (!(t1 && t2)) return undefined;
  const a1 = TIME.exec(t1);
  const a2 = TIME.exec(t2);
  if (!(a1 && a2)) return undefined;
  const k1 = a1[1]! + a1[2]! + a1[3]!;
  const k2 = a2[1]! + a2[2]! + a2[3]!;
  if (k1 > k2) return 1;
  if (k1 < k2) return -1;
  return 0;
}

const DATE_TIME_SEPARATOR = /t|\s/i;

function dateTime(str: string, strictTimeZone: boolean): boolean {
  const parts = str.split(DATE_TIME_SEPARATOR);
  return parts.length === 2 && date(parts[0]!) && time(parts[1]!, strictTimeZone);
}

function compareDateTime(dt1: string, dt2: string): number | undefined {
  if (!(dt1 && dt2)) return undefined;
  const d1 = new Date(dt1).valueOf();
  const d2 = new Date(dt2).valueOf();
  if (!(d1 && d2)) return undefined;
  return d1 - d2;
}

function compareIsoDateTime(dt1: string, dt2: string): number | undefined {
  if (!(dt1 && dt2)) return undefined;
  // ajv-formats destructures the splits: a text without a separator compares its time as undefined.
  const [d1, t1] = dt1.split(DATE_TIME_SEPARATOR) as [string, string];
  const [d2, t2] = dt2.split(DATE_TIME_SEPARATOR) as [string, string];
  const res = compareDate(d1, d2);
  if (res === undefined) return undefined;
  return res || compareTime(t1, t2);
}

// URIs: http://jmrware.com/articles/2009/uri_regexp/URI_regex.html, with a scheme and a "/" or ":" required.

const NOT_URI_FRAGMENT = /\/|:/;
const URI =
  /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;

// Base64 (after is-base64). Global and multiline as in ajv-formats: each test starts from lastIndex 0.
const BYTE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/gm;

const MIN_INT32 = -(2 ** 31);
const MAX_INT32 = 2 ** 31 - 1;

const Z_ANCHOR = /[^\\]\\Z/;

/** `date`: a full-date. */
export const formatDate: ComparedFormat = /* @__PURE__ */ Object.freeze({ validate: date, compare: compareDate });
/** `time`: a full-time, its zone required. */
export const formatTime: ComparedFormat = /* @__PURE__ */ Object.freeze({
  validate: (str: string) => time(str, true),
  compare: compareTime,
});
/** `date-time`: a date-time, its zone required. */
export const formatDateTime: ComparedFormat = /* @__PURE__ */ Object.freeze({
  validate: (str: string) => dateTime(str, true),
  compare: compareDateTime,
});
/** `iso-time`: a time, its zone optional. */
export const formatIsoTime: ComparedFormat = /* @__PURE__ */ Object.freeze({
  validate: (str: string) => time(str, false),
  compare: compareIsoTime,
});
/** `iso-date-time`: a date and a time, its zone optional. */
export const formatIsoDateTime: ComparedFormat = /* @__PURE__ */ Object.freeze({
  validate: (str: string) => dateTime(str, false),
  compare: compareIsoDateTime,
});

/** `uri`: an absolute URI. */
export function formatUri(str: string): boolean {
  return NOT_URI_FRAGMENT.test(str) && URI.test(str);
}

/** `byte`: base64 (OpenAPI). */
export function formatByte(str: string): boolean {
  BYTE.lastIndex = 0;
  return BYTE.test(str);
}

/** `regex`: a pattern JavaScript compiles, with no `\Z` anchor. */
export function formatRegex(str: string): boolean {
  if (Z_ANCHOR.test(str)) return false;
  try {
    new RegExp(str);
    return true;
  } catch {
    return false;
  }
}

/** `int32`: a signed 32-bit integer (OpenAPI). */
export const formatInt32: NumberFormat = /* @__PURE__ */ Object.freeze({
  type: "number",
  validate: (value: number) => Number.isInteger(value) && value <= MAX_INT32 && value >= MIN_INT32,
});
/** `int64`: any integer (a JSON number past 2^53 is no exact integer anyway). */
export const formatInt64: NumberFormat = /* @__PURE__ */ Object.freeze({
  type: "number",
  validate: (value: number) => Number.isInteger(value),
});
/** `float`: any number (OpenAPI). */
export const formatFloat: NumberFormat = /* @__PURE__ */ Object.freeze({ type: "number", validate: () => true });
/** `double`: any number (OpenAPI). */
export const formatDouble: NumberFormat = /* @__PURE__ */ Object.freeze({ type: "number", validate: () => true });

// The formats that are a regular expression: ajv writes them into a validator as a literal, so a
// generated validator imports none of these; the wire's interpreted check (a table by name) reads them.

/** `duration`, as ajv-formats has it. */
export const formatDuration: RegExp = /^P(?!$)((\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|(\d+W)?)$/;
/** `uri-reference`, as ajv-formats has it. */
export const formatUriReference: RegExp =
  /^(?:[a-z][a-z0-9+\-.]*:)?(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'"()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})*)*)?(?:\?(?:[a-z0-9\-._~!$&'"()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'"()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;
/** `uri-template`, as ajv-formats has it. */
export const formatUriTemplate: RegExp =
  /^(?:(?:[^\x00-\x20"'<>%\\^`{|}]|%[0-9a-f]{2})|\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?)*\})*$/i;
/** `url`, as ajv-formats has it. */
export const formatUrl: RegExp =
  /^(?:https?|ftp):\/\/(?:\S+(?::\S*)?@)?(?:(?!(?:10|127)(?:\.\d{1,3}){3})(?!(?:169\.254|192\.168)(?:\.\d{1,3}){2})(?!172\.(?:1[6-9]|2\d|3[0-1])(?:\.\d{1,3}){2})(?:[1-9]\d?|1\d\d|2[01]\d|22[0-3])(?:\.(?:1?\d{1,2}|2[0-4]\d|25[0-5])){2}(?:\.(?:[1-9]\d?|1\d\d|2[0-4]\d|25[0-4]))|(?:(?:[a-z0-9\u{00a1}-\u{ffff}]+-)*[a-z0-9\u{00a1}-\u{ffff}]+)(?:\.(?:[a-z0-9\u{00a1}-\u{ffff}]+-)*[a-z0-9\u{00a1}-\u{ffff}]+)*(?:\.(?:[a-z\u{00a1}-\u{ffff}]{2,})))(?::\d{2,5})?(?:\/[^\s]*)?$/iu;
/** `email`, as ajv-formats has it. */
export const formatEmail: RegExp =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
/** `hostname`, as ajv-formats has it. */
export const formatHostname: RegExp =
  /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\.?$/i;
/** `ipv4`, as ajv-formats has it. */
export const formatIpv4: RegExp = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
/** `ipv6`, as ajv-formats has it. */
export const formatIpv6: RegExp =
  /^((([0-9a-f]{1,4}:){7}([0-9a-f]{1,4}|:))|(([0-9a-f]{1,4}:){6}(:[0-9a-f]{1,4}|((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){5}(((:[0-9a-f]{1,4}){1,2})|:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){4}(((:[0-9a-f]{1,4}){1,3})|((:[0-9a-f]{1,4})?:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){3}(((:[0-9a-f]{1,4}){1,4})|((:[0-9a-f]{1,4}){0,2}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){2}(((:[0-9a-f]{1,4}){1,5})|((:[0-9a-f]{1,4}){0,3}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){1}(((:[0-9a-f]{1,4}){1,6})|((:[0-9a-f]{1,4}){0,4}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(:(((:[0-9a-f]{1,4}){1,7})|((:[0-9a-f]{1,4}){0,5}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:)))$/i;
/** `uuid`, as ajv-formats has it. */
export const formatUuid: RegExp = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
/** `json-pointer`, as ajv-formats has it. */
export const formatJsonPointer: RegExp = /^(?:\/(?:[^~/]|~0|~1)*)*$/;
/** `json-pointer-uri-fragment`, as ajv-formats has it. */
export const formatJsonPointerUriFragment: RegExp = /^#(?:\/(?:[a-z0-9_\-.!$&'()*+,;:=@]|%[0-9a-f]{2}|~0|~1)*)*$/i;
/** `relative-json-pointer`, as ajv-formats has it. */
export const formatRelativeJsonPointer: RegExp = /^(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~0|~1)*)*)$/;

/**
 * Each piece by the name ajv-formats gives its format: the export a module
 * imports for it (standalone.ts builds a module's format table from these).
 */
export const FORMAT_PIECES = {
  date: "formatDate",
  time: "formatTime",
  "date-time": "formatDateTime",
  "iso-time": "formatIsoTime",
  "iso-date-time": "formatIsoDateTime",
  duration: "formatDuration",
  uri: "formatUri",
  "uri-reference": "formatUriReference",
  "uri-template": "formatUriTemplate",
  url: "formatUrl",
  email: "formatEmail",
  hostname: "formatHostname",
  ipv4: "formatIpv4",
  ipv6: "formatIpv6",
  regex: "formatRegex",
  uuid: "formatUuid",
  "json-pointer": "formatJsonPointer",
  "json-pointer-uri-fragment": "formatJsonPointerUriFragment",
  "relative-json-pointer": "formatRelativeJsonPointer",
  byte: "formatByte",
  int32: "formatInt32",
  int64: "formatInt64",
  float: "formatFloat",
  double: "formatDouble",
} as const;
