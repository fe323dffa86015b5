/**
 * Postman's dynamic variables (`{{$timestamp}}`, `{{$randomInt}}`, the list
 * in Postman's "dynamic variables" docs) as flowrun expressions of the shape
 * Postman sends: a number where it sends digits (`${RANDOM.DIGITS_3}`, a
 * number alone in a JSON body as `{"qty": {{$randomInt}}}` is), an email
 * where it sends an email, the time of the run where it sends the time.
 * A person's name is letters only, a capital first, as Postman's are
 * (`Firstname${RANDOM.ALPHA_6}` where Postman sends `Moriah`), since servers
 * check names for letters; other words are text named for what they stand
 * for (`noun-${RANDOM.HEX_8}`). What flowrun cannot shape (a date as
 * JavaScript writes it, a country code, an IBAN, a name it does not know)
 * is sent as the nearest it can make and named in the summary.
 *
 * @module
 */

const D = (n: number) => `\${RANDOM.DIGITS_${n}}`;
const H = (n: number) => `\${RANDOM.HEX_${n}}`;
const A = (n: number) => `\${RANDOM.ALPHA_${n}}`;
const repeat = (n: number, part: string, sep: string) => Array(n).fill(part).join(sep);

/** The variables flowrun makes in Postman's shape; a Map, so `constructor` finds nothing. */
const SHAPED = new Map<string, string>([
  ["$guid", "${RANDOM.UUID}"],
  ["$randomUUID", "${RANDOM.UUID}"],
  ["$timestamp", "${NOW.UNIX}"],
  ["$isoTimestamp", "${NOW.ISO}"],
  ["$randomInt", D(3)],
  ["$randomBoolean", "${RANDOM.BOOL}"],
  ["$randomAlphaNumeric", H(1)],
  ["$randomHexColor", `#${H(6)}`],
  ["$randomIP", `10.${repeat(3, D(2), ".")}`],
  ["$randomIPV6", `fd00:${repeat(7, H(4), ":")}`],
  ["$randomMACAddress", `02:${repeat(5, H(2), ":")}`],
  ["$randomPassword", `Pw${H(13)}`],
  ["$randomUserAgent", `Mozilla/5.0 (compatible; flowrun-${H(8)})`],
  ["$randomProtocol", "https"],
  ["$randomSemver", repeat(3, D(1), ".")],
  ["$randomFirstName", `Firstname${A(6)}`],
  ["$randomLastName", `Lastname${A(6)}`],
  ["$randomFullName", `Firstname${A(6)} Lastname${A(6)}`],
  ["$randomPhoneNumber", `${D(3)}-${D(3)}-${D(4)}`],
  ["$randomPhoneNumberExt", `${D(2)}-${D(3)}-${D(3)}-${D(4)}`],
  ["$randomStreetAddress", `${D(4)} street-${H(8)}`],
  ["$randomLatitude", `4${D(1)}.${D(4)}`],
  ["$randomLongitude", `1${D(1)}.${D(4)}`],
  ["$randomBankAccount", D(8)],
  ["$randomCreditCardMask", D(4)],
  ["$randomPrice", `${D(3)}.${D(2)}`],
  ["$randomDomainName", `${H(8)}.example.com`],
  ["$randomDomainSuffix", "com"],
  ["$randomEmail", `user-${H(8)}@example.com`],
  ["$randomExampleEmail", `user-${H(8)}@example.com`],
  ["$randomUserName", `user${H(8)}`],
  ["$randomUrl", `https://${H(8)}.example.com`],
  ["$randomImageUrl", `https://example.com/images/${H(8)}.jpg`],
  ["$randomFileName", `file-${H(8)}.txt`],
  ["$randomCommonFileName", `file-${H(8)}.txt`],
  ["$randomFilePath", `/tmp/file-${H(8)}.txt`],
  ["$randomDirectoryPath", `/tmp/dir-${H(8)}`],
  ["$randomMimeType", `application/x-${H(8)}`],
  ["$randomLoremSlug", `${H(8)}-${H(8)}`],
]);

/**
 * Postman's date variables: a time now, later or earlier, in ISO 8601 where
 * Postman writes JavaScript's date text (`Tue Mar 16 2027 13:11:15 GMT+0000`).
 */
const DATES = new Map<string, string>([
  ["$randomDateFuture", "${NOW.ISO+30d}"],
  ["$randomDatePast", "${NOW.ISO-30d}"],
  ["$randomDateRecent", "${NOW.ISO-1d}"],
]);

/** Postman's variables of words (names, products, lorem): text named for what it stands for. */
const WORDS = new Set(
  ("FirstName LastName NamePrefix NameSuffix JobArea JobDescriptor JobTitle JobType City " +
    "StreetName Country Color Abbreviation BankAccountName TransactionType CurrencyName " +
    "CompanyName CompanySuffix Bs BsAdjective BsBuzz BsNoun CatchPhrase CatchPhraseAdjective " +
    "CatchPhraseDescriptor CatchPhraseNoun DatabaseColumn DatabaseType DatabaseCollation " +
    "DatabaseEngine DomainWord FileType FileExt CommonFileType CommonFileExt Product " +
    "ProductAdjective ProductMaterial ProductName Department Noun Verb Ingverb Adjective Word " +
    "Words Phrase LoremWord LoremWords LoremSentence LoremSentences LoremParagraph " +
    "LoremParagraphs LoremText LoremLines").split(" ").map((w) => `$random${w}`),
);

/**
 * The expression for one of Postman's dynamic variables, and whether it is
 * of the shape Postman sends; undefined for a name that is not one
 * (`{{$x}}` without `random`).
 *
 * @example
 * ```ts
 * import { dynamicValue } from "./dynamic.ts";
 * if (dynamicValue("$randomInt")?.text !== "${RANDOM.DIGITS_3}") throw new Error();
 * if (dynamicValue("$timestamp")?.text !== "${NOW.UNIX}") throw new Error();
 * if (dynamicValue("$randomNoun")?.text !== "noun-${RANDOM.HEX_8}") throw new Error();
 * if (dynamicValue("$randomDateFuture")?.shaped !== false) throw new Error();
 * if (dynamicValue("$other") !== undefined) throw new Error();
 * ```
 */
export function dynamicValue(name: string): { text: string; shaped: boolean } | undefined {
  const shaped = SHAPED.get(name);
  if (shaped !== undefined) return { text: shaped, shaped: true };
  const date = DATES.get(name);
  if (date !== undefined) return { text: date, shaped: false };
  if (!/^\$random[A-Z]/.test(name)) return undefined;
  // Words and images are text and URLs by what they are called; any other is unknown to flowrun.
  if (name.endsWith("Image")) {
    return { text: `https://example.com/images/${H(8)}.jpg`, shaped: true };
  }
  const subject = name.slice("$random".length).replace(/(?<=[a-z])(?=[A-Z])/g, "-").toLowerCase();
  return { text: `${subject}-${H(8)}`, shaped: WORDS.has(name) };
}

/**
 * Whether a flow template is one expression whose value is not text
 * (`${NOW.UNIX}`, `${RANDOM.DIGITS_3}`, `${RANDOM.BOOL}`), so that a JSON
 * string holding only it would be sent as a number or a boolean.
 *
 * @example
 * ```ts
 * import { keepsType } from "./dynamic.ts";
 * if (!keepsType("${NOW.UNIX}") || !keepsType("${RANDOM.DIGITS_8}") || keepsType("${NOW.ISO}")) throw new Error();
 * ```
 */
export function keepsType(template: string): boolean {
  return /^\$\{(NOW\.UNIX(_MS)?([+-]\d+[smhdw])?|RANDOM\.(DIGITS_\d+|BOOL))\}$/.test(template);
}
