/**
 * `convertCurl`: a README's heading that names curl ("Curl commands:",
 * "CURL usage:") was a command: a step to `http://commands/`
 * that failed the run before the sign-up, and a second base URL to set (a
 * Flask demo's README, measured by hand). A line starting with a capitalised
 * `Curl` (a sentence's start; the command is `curl`) whose other words are
 * plain words, the last ending with a colon, introduces the commands: it is
 * no command. A command with an option, a URL, a host or a port stays one.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const SESSION = [
  "Curl commands:",
  "",
  "Signup:",
  "",
  "curl -i \\",
  '    --header "Content-Type: application/json" \\',
  "    --request POST \\",
  `    --data '{ "email":"ann@mail.test", "name": "ann", "password":"123456" }' \\`,
  "    http://localhost:5000/signup",
  "",
].join("\n");

Deno.test("a heading naming curl is no command: one step, one base URL", () => {
  for (const heading of ["Curl commands:", "Curl examples for the API:", "CURL usage:"]) {
    const { yaml, summary } = convertCurl(SESSION.replace("Curl commands:", heading));
    assert.equal(summary.steps, 1, yaml);
    assert.doesNotMatch(yaml, /BASE_URL_2|http:\/\/(commands|examples|usage)/, yaml);
    assert.match(yaml, /from 1 curl command/, yaml);
  }
});

Deno.test("a command with an option, a URL, a host or a port is still one", () => {
  const commands = ["curl -s status:", "curl localhost:", "curl api.test:", "Curl http://a.test/x"];
  for (const command of commands) {
    const { summary } = convertCurl(`${command}\n`);
    assert.equal(summary.steps, 1, command);
  }
});

Deno.test("a capitalised heading of one word and no colon is no command either", () => {
  // An Express session tutorial's README: "Curl commands " over its commands, no colon.
  for (const heading of ["Curl commands ", "CURL examples", "cURL usage", "Curl commands."]) {
    const { yaml, summary } = convertCurl(SESSION.replace("Curl commands:", heading));
    assert.equal(summary.steps, 1, `${heading}: ${yaml}`);
    assert.doesNotMatch(yaml, /BASE_URL_2|http:\/\/(commands|examples|usage)/, heading);
  }
  // Lower case, it is the program and a host the shell reaches (`curl web` in a compose network).
  assert.equal(convertCurl("curl web\n").summary.steps, 1);
});

// An issue tracker's REST page (rST) leads into its upload example with "Curl can be used to post
// a file using multipart/form-data with::": a media type and rST's literal-block `::` were no
// plain words, so the sentence was a command of nine URLs (`http://can/`, `http://be/`…), nine
// steps that could not resolve their hosts. After a capitalised `Curl` a word joined by `/` or
// `-` is a sentence's; after `curl` as typed it is still a host and its path.
Deno.test("a sentence naming Curl with a media type, ending rST's `::`, is no command", () => {
  const lead = "Curl can be used to post a file using multipart/form-data with::";
  const { yaml, summary } = convertCurl(SESSION.replace("Curl commands:", `${lead}\n`));
  assert.equal(summary.steps, 1, yaml);
  assert.doesNotMatch(yaml, /http:\/\/(can|be|with)\b/, yaml);
  const typed = convertCurl("curl api/v1 status\n");
  assert.equal(typed.summary.steps, 2, typed.yaml);
});
