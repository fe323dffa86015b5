/**
 * Calls that Newman's own sandbox does not have. Its global `_` is lodash
 * 3.10.2 (Newman 6.2.2; `require('lodash')` gives 4.17.21), so a lodash 4
 * function called on `_` (`_.sampleSize(list, 2)`) is no function there, and
 * it has no `crypto` global (`crypto.randomUUID()`). Either stops the script
 * with an error at that line: the variable it would set stays unset, and
 * Newman sends `{{name}}` as written, which is what the flow sends too. The
 * summary says so, instead of "Postman sends what the script sets". The list
 * was read in that sandbox: the functions of `require('lodash')` for which
 * `typeof _[name] !== "function"`, Postman's own additions left out.
 *
 * @module
 */

const LODASH_4_ONLY = new Set(
  ("assignIn assignInWith assignWith castArray clamp cloneDeepWith cloneWith concat cond " +
    "conforms conformsTo defaultTo differenceBy differenceWith divide entries entriesIn " +
    "extendWith flatMap flatMapDeep flatMapDepth flattenDepth flip fromPairs functionsIn hasIn " +
    "intersectionBy intersectionWith invertBy invokeMap isArrayBuffer isArrayLike " +
    "isArrayLikeObject isBuffer isEqualWith isInteger isLength isMap isMatchWith isNil " +
    "isObjectLike isSafeInteger isSet isSymbol isWeakMap isWeakSet join keyBy lowerCase " +
    "lowerFirst maxBy mean meanBy mergeWith minBy multiply nth nthArg omitBy orderBy over " +
    "overArgs overEvery overSome padEnd padStart pickBy pullAll pullAllBy pullAllWith rangeRight " +
    "replace reverse sampleSize setWith sortedIndexBy sortedIndexOf sortedLastIndexBy " +
    "sortedLastIndexOf sortedUniq sortedUniqBy split stubArray stubFalse stubObject stubString " +
    "stubTrue subtract sumBy toFinite toInteger toLength toLower toNumber toPairs toPairsIn " +
    "toPath toSafeInteger toUpper trimEnd trimStart truncate unary unionBy unionWith uniqBy " +
    "uniqWith unset update updateWith upperCase upperFirst xorBy xorWith zipObjectDeep")
    .split(" "),
);

/**
 * The call in `line` (a script's statement, with the declarations it reads)
 * that Newman's sandbox does not have, as the summary names it; undefined when
 * there is none, or when the script declared `_` or `crypto` itself.
 *
 * @example
 * ```ts
 * import { sandboxLacks } from "./sandbox_lacks.ts";
 * if (sandboxLacks("pm.environment.set('p', _.sampleSize(list, 2));") !== "_.sampleSize") throw new Error();
 * if (sandboxLacks("pm.environment.set('id', crypto.randomUUID());") !== "crypto.randomUUID") throw new Error();
 * if (sandboxLacks("const _ = require('lodash'); set('p', _.sampleSize(l, 2));") !== undefined) throw new Error();
 * if (sandboxLacks("pm.environment.set('n', _.random(1, 9));") !== undefined) throw new Error();
 * ```
 */
export function sandboxLacks(line: string): string | undefined {
  const declares = (name: string) =>
    new RegExp(`\\b(?:const|let|var|function)\\s+${name.replace("$", "\\$")}\\b`).test(line);
  for (const m of line.matchAll(/(?<![\w$.])_\.([A-Za-z]\w*)\s*\(/g)) {
    if (LODASH_4_ONLY.has(m[1]) && !declares("_")) return `_.${m[1]}`;
  }
  const crypto = /(?<![\w$.])crypto\.([A-Za-z]\w*)/.exec(line);
  return crypto && !declares("crypto") ? `crypto.${crypto[1]}` : undefined;
}
