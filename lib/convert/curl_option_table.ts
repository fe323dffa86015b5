/**
 * curl's options as tables, curl 8's: which long options take a value, the
 * long name of each short option, and the options (long and short) that only
 * change what curl prints or where it writes. Read by `curl_options.ts`
 * (a command's words) and `curl_config.ts` (a `-K` file's lines).
 *
 * @module
 */

import { table } from "./table.ts";

/**
 * Long options that take a value (the word after them), curl 8's list.
 *
 * @example
 * ```ts
 * import { TAKES_VALUE } from "./curl_option_table.ts";
 * if (!TAKES_VALUE.has("header") || TAKES_VALUE.has("silent")) throw new Error();
 * ```
 */
export const TAKES_VALUE = new Set(
  ("abstract-unix-socket alt-svc aws-sigv4 cacert capath cert cert-type ciphers config " +
    "connect-timeout connect-to continue-at cookie cookie-jar create-file-mode crlfile curves " +
    "data data-ascii data-binary data-raw data-urlencode delegation dns-interface " +
    "dns-ipv4-addr dns-ipv6-addr dns-servers doh-url dump-header ech egd-file engine " +
    "etag-compare etag-save expect100-timeout form form-string ftp-account " +
    "ftp-alternative-to-user ftp-method ftp-port ftp-ssl-ccc-mode happy-eyeballs-timeout-ms " +
    "haproxy-clientip header hostpubmd5 hostpubsha256 hsts interface ip-tos ipfs-gateway json " +
    "keepalive-time keepalive-cnt key key-type krb libcurl limit-rate local-port " +
    "login-options mail-auth mail-from mail-rcpt max-filesize max-redirs max-time netrc-file " +
    "noproxy oauth2-bearer output output-dir parallel-max pass pinnedpubkey preproxy proto " +
    "proto-default proto-redir proxy proxy-cacert proxy-capath proxy-cert proxy-cert-type " +
    "proxy-ciphers proxy-crlfile proxy-header proxy-key proxy-key-type proxy-pass " +
    "proxy-pinnedpubkey proxy-service-name proxy-tls13-ciphers proxy-tlsauthtype " +
    "proxy-tlspassword proxy-tlsuser proxy-user proxy1.0 pubkey quote random-file range rate " +
    "referer request request-target resolve retry retry-delay retry-max-time sasl-authzid " +
    "service-name socks4 socks4a socks5 socks5-hostname socks5-gssapi-service speed-limit " +
    "speed-time stderr telnet-option tftp-blksize time-cond tls-max tls13-ciphers " +
    "tlsauthtype tlspassword tlsuser trace trace-ascii trace-config unix-socket upload-file " +
    "url url-query user user-agent variable write-out vlan-priority").split(" "),
);

/**
 * Short options and their long names.
 *
 * @example
 * ```ts
 * import { SHORT } from "./curl_option_table.ts";
 * if (SHORT.H !== "header" || SHORT.X !== "request" || "s" in SHORT) throw new Error();
 * ```
 */
export const SHORT = table<string>({
  A: "user-agent",
  b: "cookie",
  c: "cookie-jar",
  C: "continue-at",
  d: "data",
  D: "dump-header",
  e: "referer",
  E: "cert",
  F: "form",
  G: "get",
  H: "header",
  I: "head",
  k: "insecure",
  K: "config",
  L: "location",
  m: "max-time",
  o: "output",
  P: "ftp-port",
  Q: "quote",
  r: "range",
  t: "telnet-option",
  T: "upload-file",
  u: "user",
  U: "proxy-user",
  w: "write-out",
  x: "proxy",
  X: "request",
  y: "speed-time",
  Y: "speed-limit",
  z: "time-cond",
});

/**
 * Options that change only what curl prints or where it writes: nothing to carry.
 *
 * @example
 * ```ts
 * import { QUIET } from "./curl_option_table.ts";
 * if (!QUIET.has("silent") || QUIET.has("header")) throw new Error();
 * ```
 */
export const QUIET = new Set(
  ("silent show-error verbose include output remote-name remote-name-all remote-header-name " +
    "write-out dump-header progress-bar no-progress-meter fail fail-with-body fail-early " +
    "trace trace-ascii trace-time trace-config stderr create-dirs output-dir styled-output " +
    "disable no-buffer compressed max-redirs connect-timeout no-keepalive keepalive " +
    "tcp-nodelay tr-encoding raw libcurl parallel parallel-max parallel-immediate " +
    "location-trusted clobber no-clobber remove-on-error xattr").split(" "),
);

/**
 * Short flags curl has that print or behave locally (`-s`, `-v`, `-#`, …).
 *
 * @example
 * ```ts
 * import { QUIET_SHORT } from "./curl_option_table.ts";
 * if (QUIET_SHORT.s !== "silent" || QUIET_SHORT["#"] !== "progress-bar") throw new Error();
 * ```
 */
export const QUIET_SHORT = table<string>({
  s: "silent",
  S: "show-error",
  v: "verbose",
  i: "include",
  O: "remote-name",
  J: "remote-header-name",
  "#": "progress-bar",
  f: "fail",
  N: "no-buffer",
  q: "disable",
  g: "globoff",
  Z: "parallel",
});
