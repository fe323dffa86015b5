/**
 * `convert har` on a password a dialog chooses for a new account and posts
 * inside a JSON document: LDAP Account Manager's password dialog (new +
 * repeat) sends `{"password1": …, "password2": …}` as the `jsonInput` part of
 * a multipart/form-data AJAX post, and the summary asked the user for it
 * (`EDIT_PHP_2_PASSWORD`) though nobody knows it before the run: the
 * "typed twice, sent by no request before it" rule read only a form's or a
 * JSON object's top-level fields.
 *
 * What the converter does (correlate/chosen_passwords.ts, body_fields.ts): a
 * request's fields are read wherever they sit (a multipart body's text parts,
 * a field holding a JSON object, a JSON body's nested members), so the value
 * typed twice there is the run's own (`${RANDOM.PASSWORD}`), sent in the
 * dialog and in the later sign-in as the new user; the operator's own
 * sign-in password stays asked. Each encoding runs twice on one stand-in.
 */
import {
  BOUNDARY,
  CHOSEN,
  chosenIsTheRunsOwn,
  dialogRecording,
  directoryStandIn,
} from "../support/dialog_password.ts";

/** The dialog's body in one encoding: what the page's script posts. */
interface Encoding {
  name: string;
  mime: string;
  body: (json: string) => string;
  /** The dialog's `{password1, password2}` read back from a posted body. */
  read: (req: Request) => Promise<Record<string, unknown>>;
}

const ENCODINGS: Encoding[] = [
  {
    name: "a multipart part holding JSON",
    mime: `multipart/form-data; boundary=${BOUNDARY}`,
    body: (json) =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="jsonInput"\r\n\r\n${json}\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="action"\r\n\r\nchange\r\n` +
      `--${BOUNDARY}--\r\n`,
    read: async (req) => JSON.parse(String((await req.formData()).get("jsonInput") ?? "{}")),
  },
  {
    name: "a urlencoded field holding JSON",
    mime: "application/x-www-form-urlencoded",
    body: (json) => `jsonInput=${encodeURIComponent(json)}&action=change`,
    read: async (req) => JSON.parse(new URLSearchParams(await req.text()).get("jsonInput") ?? "{}"),
  },
  {
    name: "a JSON body's nested member",
    mime: "application/json",
    body: (json) => `{"dialog":${json},"action":"change"}`,
    read: async (req) => (await req.json()).dialog ?? {},
  },
];

/** The dialog's document as the page's script posts it, in `encoding`. */
function recording(encoding: Encoding): string {
  const json = JSON.stringify({
    modules: ["posixAccount"],
    password1: CHOSEN,
    password2: CHOSEN,
    random: false,
  });
  return dialogRecording({ mime: encoding.mime, text: encoding.body(json) });
}

for (const encoding of ENCODINGS) {
  Deno.test(`convert har: a password a dialog chooses, sent in ${encoding.name}, is the run's own; the operator's stays asked`, async () => {
    const app = directoryStandIn(async (req) => {
      const json = await encoding.read(req);
      return [json.password1, json.password2];
    });
    try {
      await chosenIsTheRunsOwn(recording(encoding), app);
    } finally {
      await app.close();
    }
  });
}
