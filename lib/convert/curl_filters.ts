/**
 * The programs in a docs' pipeline that `convert curl` runs itself, because
 * what they write follows from what they read and their words alone:
 * encoders (`base64`, `base32`, GNU's `basenc`, basez's `base64url`,
 * `base16`, `hex`, …, `xxd -p`, `openssl base64`, each decoding with `-d`),
 * `tr` over plain sets, `cat` and `gzip`. Any other program, or an option
 * these are not read with here, is not run: `undefined`, and the caller
 * says so.
 *
 * @module
 */
import { type Alphabet, decodeBaseN, encodeBaseN } from "./base_n.ts";
import { gzipStored } from "./gzip_stored.ts";
import { translated } from "./curl_tr.ts";

/** How an encoder writes: its alphabet, line width (0: one line), and case. */
interface Encoder {
  alphabet: Alphabet;
  wrap: number;
  upper?: boolean;
}

/** basez's programs: one line each, base16 and base32hex in lower case; PEM and MIME wrapped. */
const BASEZ: Record<string, Encoder> = {
  base64url: { alphabet: "base64url", wrap: 0 },
  base64plain: { alphabet: "base64", wrap: 0 },
  base64mime: { alphabet: "base64", wrap: 76 },
  base64pem: { alphabet: "base64", wrap: 64 },
  base32plain: { alphabet: "base32", wrap: 0 },
  base32hex: { alphabet: "base32hex", wrap: 0 },
  base16: { alphabet: "base16", wrap: 0 },
  hex: { alphabet: "base16", wrap: 0 },
};

/** GNU basenc's encodings (its base16 and base32hex are upper case). */
const BASENC: Record<string, Encoder> = {
  "--base64": { alphabet: "base64", wrap: 76 },
  "--base64url": { alphabet: "base64url", wrap: 76 },
  "--base32": { alphabet: "base32", wrap: 76 },
  "--base32hex": { alphabet: "base32hex", wrap: 76, upper: true },
  "--base16": { alphabet: "base16", wrap: 76, upper: true },
};

/**
 * What the program `words` names writes when it reads `input`; `undefined`
 * when it is not one run here, or is given an option not read here.
 *
 * @example
 * ```ts
 * import { filtered } from "./curl_filters.ts";
 * const text = (b?: Uint8Array) => b && new TextDecoder().decode(b);
 * const ab = new TextEncoder().encode("ab");
 * if (text(filtered(["base64"], ab)) !== "YWI=\n") throw new Error();
 * if (text(filtered(["xxd", "-p"], ab)) !== "6162\n") throw new Error();
 * if (text(filtered(["base64", "-d"], new TextEncoder().encode("YWI="))) !== "ab") throw new Error();
 * if (filtered(["sha256sum"], ab) !== undefined) throw new Error();
 * ```
 */
export function filtered(words: readonly string[], input: Uint8Array): Uint8Array | undefined {
  const [name, ...args] = words;
  const program = name?.split("/").at(-1) ?? "";
  if (Object.hasOwn(PROGRAMS, program)) return PROGRAMS[program](args, input);
  return Object.hasOwn(BASEZ, program) ? basez(BASEZ[program], args, input) : undefined;
}

/** The programs run here by name, each given its arguments and what it reads. */
const PROGRAMS: Record<string, (args: string[], input: Uint8Array) => Uint8Array | undefined> = {
  cat: (args, input) => args.every((a) => a === "-") ? input : undefined,
  gzip: (args, input) => args.every((a) => GZIP_OPTION.test(a)) ? gzipStored(input) : undefined,
  tr: translated,
  xxd,
  openssl,
  base64: (args, input) => gnu({ alphabet: "base64", wrap: 76 }, args, input),
  base32: (args, input) => gnu({ alphabet: "base32", wrap: 76 }, args, input),
  basenc: (args, input) => {
    const encoder = BASENC[args.find((a) => Object.hasOwn(BASENC, a)) ?? ""];
    return encoder && gnu(encoder, args.filter((a) => !Object.hasOwn(BASENC, a)), input);
  },
};

/** A basez program: encodes, or decodes with `-d`; nothing else. */
function basez(encoder: Encoder, args: string[], input: Uint8Array): Uint8Array | undefined {
  if (args.length === 0) return encoded(input, encoder);
  return args.length === 1 && /^(-d|-D|--decode)$/.test(args[0])
    ? decodeBaseN(new TextDecoder().decode(input).replace(/[ \t]/g, ""), encoder.alphabet)
    : undefined;
}

/** gzip's options that change nothing of what it writes to a pipe, as far as a server reads it. */
const GZIP_OPTION = /^(-[cfnN1-9]+|-|--(stdout|to-stdout|best|fast|no-name|force))$/;

/** `base64`, `base32`, `basenc`: `-w N`/`--wrap=N`, `-d`/`--decode`, `-i`; nothing else. */
function gnu(encoder: Encoder, args: string[], input: Uint8Array): Uint8Array | undefined {
  let wrap = encoder.wrap;
  let decode = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const width = /^(?:-w|--wrap=?)(\d*)$/.exec(a);
    if (width) {
      const value = width[1] || args[++i];
      if (!/^\d+$/.test(value ?? "")) return undefined;
      wrap = Number(value);
    } else if (a === "-d" || a === "--decode") decode = true;
    else if (!(a === "-i" || a === "--ignore-garbage" || a === "-")) return undefined;
  }
  if (!decode) return encoded(input, { ...encoder, wrap });
  return decodeBaseN(new TextDecoder().decode(input), encoder.alphabet);
}

/** `xxd -p` (`-ps`, `-plain`, `-postscript`), `-c N` bytes a line (30 by default), `-r` back. */
function xxd(args: string[], input: Uint8Array): Uint8Array | undefined {
  let plain = false;
  let reverse = false;
  let columns = 30;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const cols = /^(?:-c|-cols)(\d*)$/.exec(a);
    if (/^-(p|ps|plain|postscript)$/.test(a)) plain = true;
    else if (a === "-r" || a === "-revert") reverse = true;
    else if (a === "-rp" || a === "-pr") plain = reverse = true;
    else if (cols && /^[1-9]\d*$/.test(cols[1] || args[i + 1] || "")) {
      columns = Number(cols[1] || args[++i]);
    } else return undefined;
  }
  if (!plain) return undefined;
  if (reverse) return decodeBaseN(new TextDecoder().decode(input).replace(/\s/g, ""), "base16");
  return encoded(input, { alphabet: "base16", wrap: columns * 2 });
}

/** `openssl base64` / `openssl enc -base64` (`-a`): 64 a line, `-A` one line, `-d` back. */
function openssl(args: string[], input: Uint8Array): Uint8Array | undefined {
  const [command, ...rest] = args;
  const options = command === "base64" ? rest : command === "enc" ? rest : undefined;
  if (!options || (command === "enc" && !options.some((o) => o === "-base64" || o === "-a"))) {
    return undefined;
  }
  let wrap = 64;
  let decode = false;
  for (const o of options) {
    if (o === "-A") wrap = 0;
    else if (o === "-d") decode = true;
    else if (!(o === "-base64" || o === "-a" || o === "-e")) return undefined;
  }
  if (!decode) return encoded(input, { alphabet: "base64", wrap });
  return decodeBaseN(new TextDecoder().decode(input), "base64");
}

/** `input` encoded, cut into lines of `wrap` characters, each ending in a line break. */
function encoded(input: Uint8Array, { alphabet, wrap, upper }: Encoder): Uint8Array {
  let text = encodeBaseN(input, alphabet);
  if (upper) text = text.toUpperCase();
  const lines = wrap > 0 ? text.match(new RegExp(`.{1,${wrap}}`, "g")) ?? [] : [text];
  return new TextEncoder().encode(lines.map((l) => `${l}\n`).join(""));
}
