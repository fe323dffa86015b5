/**
 * Validates JUnit XML against the Jenkins JUnit XSD with xmllint, the schema
 * that GitLab, GitHub test reporters and Jenkins accept. The XSD is kept in
 * the repository (`tests/fixtures/junit/`, with its origin and licence), or
 * `$JUNIT_XSD` names another.
 * Outside CI a missing xmllint or XSD makes the tests that need them ignored,
 * with the reason in their names; with `CI=true` they run and fail.
 */
import assert from "node:assert/strict";

const XSD_CANDIDATES = [
  Deno.env.get("JUNIT_XSD"),
  decodeURIComponent(new URL("../fixtures/junit/jenkins-junit.xsd", import.meta.url).pathname),
].filter((p): p is string => !!p);

function findXsd(): string | undefined {
  for (const path of XSD_CANDIDATES) {
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch {
      // Not there; try the next one.
    }
  }
  return undefined;
}

async function hasCommand(name: string): Promise<boolean> {
  try {
    await new Deno.Command(name, { args: ["--version"], stdout: "null", stderr: "null" }).output();
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

const xsd = findXsd();
const hasXmllint = await hasCommand("xmllint");

/** Whether tests that validate with xmllint should be ignored here. */
export const ignoreXsd: boolean = !(hasXmllint && xsd) && Deno.env.get("CI") !== "true";

/** Appended to the names of such tests, saying why they were ignored. */
export const whyXsdIgnored: string = ignoreXsd
  ? ` [ignored: ${
    hasXmllint ? "no JUnit XSD found" : "xmllint not installed"
  }; with CI=true this fails]`
  : "";

/**
 * Surefire's re-run elements (`flakyFailure`, `flakyError`, `rerunFailure`,
 * `rerunError`), as its report XSD places them in a `<testcase>`: after the
 * failures, before the output, each with `message` and `type` and an
 * optional `stackTrace`, `system-out` and `system-err`. The Jenkins XSD has
 * no place for them; reports of re-run flows are checked against it with
 * exactly these added, and nothing else.
 */
const SUREFIRE_REFS = ["flakyFailure", "flakyError", "rerunFailure", "rerunError"];

function surefireDefinition(name: string): string {
  return `<xs:element name="${name}"><xs:complexType><xs:sequence>` +
    `<xs:element name="stackTrace" type="xs:string" minOccurs="0"/>` +
    `<xs:element ref="system-out" minOccurs="0"/><xs:element ref="system-err" minOccurs="0"/>` +
    `</xs:sequence><xs:attribute name="message" type="xs:string"/>` +
    `<xs:attribute name="type" type="xs:string" use="required"/></xs:complexType></xs:element>`;
}

let surefireXsd: string | undefined;

/** The Jenkins XSD with Surefire's re-run elements added, in a temporary file made once. */
async function surefireSchema(jenkins: string): Promise<string> {
  if (surefireXsd) return surefireXsd;
  const text = await Deno.readTextFile(jenkins);
  const failure = '<xs:element ref="failure" minOccurs="0" maxOccurs="unbounded"/>';
  assert.ok(text.includes(failure), "the Jenkins XSD's testcase lists its failures");
  const refs = SUREFIRE_REFS.map((n) =>
    `<xs:element ref="${n}" minOccurs="0" maxOccurs="unbounded"/>`
  );
  const extended = text.replace(failure, failure + refs.join(""))
    .replace("</xs:schema>", SUREFIRE_REFS.map(surefireDefinition).join("") + "</xs:schema>");
  const file = await Deno.makeTempFile({ prefix: "flowrun-surefire-", suffix: ".xsd" });
  await Deno.writeTextFile(file, extended);
  return surefireXsd = file;
}

/**
 * Validates an XML file against the XSD; fails with xmllint's complaint.
 * `surefire`: against the Jenkins XSD with Surefire's re-run elements added
 * (the report of a run where flows were re-run).
 */
export async function validateJUnitFile(file: string, schema?: "surefire"): Promise<void> {
  assert.ok(hasXmllint, "xmllint is required in CI (apt-get install libxml2-utils)");
  assert.ok(xsd, `the JUnit XSD was not found in: ${XSD_CANDIDATES.join(", ")}`);
  const against = schema === "surefire" ? await surefireSchema(xsd) : xsd;
  const { success, stderr } = await new Deno.Command("xmllint", {
    args: ["--noout", "--schema", against, file],
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.ok(success, `xmllint rejected the XML:\n${new TextDecoder().decode(stderr)}`);
}

/** Validates XML text against the XSD through a temporary file. */
export async function validateJUnit(xml: string): Promise<void> {
  const file = await Deno.makeTempFile({ prefix: "flowrun-junit-", suffix: ".xml" });
  try {
    await Deno.writeTextFile(file, xml);
    await validateJUnitFile(file);
  } finally {
    await Deno.remove(file);
  }
}
