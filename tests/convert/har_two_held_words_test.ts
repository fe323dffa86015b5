/**
 * `convert har a.har b.har` on a journey whose field and header names hold an ordinary word that
 * merely contains a credential's short name: a food hall's `hotpot_session_name` (`otp` inside
 * `hotpot`), `passage_session_title` (`pass` inside `passage`), `session_spin` (`pin` at the end
 * of `spin`), and an `X-Footprint-Token: no-check` header (`otp` inside `footprint`) the page
 * sends in both sessions. The rule for what a user holds matched those letters anywhere, so each
 * was taken for a password, a one-time code or a PIN: the typed words were asked as required
 * secrets (a value no new user has) and the constant header became a variable. A credential's
 * name is a whole word, as in every other name rule: the typed words are data, sent as recorded,
 * and the constant header is the app's. What a user holds stays asked however equal or plain it
 * reads: `pin`, `otp`, `otp_code`, `passcode`, `api_key`, `apiKey`, `X-Api-Key`; and tokens no
 * response produced (`authToken`, `session_id`) are never written into the flow.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";
import { convertHars } from "./har_convert.ts";

const AT = "http://127.0.0.1:7312";

/** Fields the booking must carry; the stand-in answers 400 when one is missing. */
const NEEDED = [
  "hotpot_session_name",
  "passage_session_title",
  "session_spin",
  "pin",
  "otp",
  "otp_code",
  "passcode",
  "api_key",
  "apiKey",
  "authToken",
  "session_id",
];

/** A stand-in that wants the password it was set up with and every field on each booking. */
function standIn(password: string) {
  let next = 40;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const body = req.method === "POST" ? await req.json() : {};
    if (path === "/api/login") {
      return body.password === password
        ? Response.json({ ok: true }, { headers: { "set-cookie": `sid=s${next}; Path=/` } })
        : Response.json({ error: "bad login" }, { status: 401 });
    }
    if (!req.headers.get("cookie")?.includes("sid=")) return Response.json({}, { status: 401 });
    const headersOk = req.headers.get("x-footprint-token") === "no-check" &&
      !!req.headers.get("x-api-key");
    if (path === "/api/bookings" && headersOk && NEEDED.every((k) => body[k])) {
      return Response.json({ id: next++ }, { status: 201 });
    }
    return Response.json({ error: "bad request" }, { status: 400 });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

type Typed = Record<string, string>;

/** One recording: log in, then book a class with what the user typed and holds this time. */
function recording(typed: Typed) {
  const json = (o: unknown) => JSON.stringify(o);
  const { password, ...fields } = typed;
  return harOf([
    {
      method: "POST",
      url: `${AT}/api/login`,
      body: json({ user: "ann", password }),
      json: { ok: true },
      setCookies: [["sid", "s1"]],
    },
    {
      method: "POST",
      url: `${AT}/api/bookings`,
      headers: [["Cookie", "sid=s1"], ["X-Footprint-Token", "no-check"], ["X-Api-Key", "tulip"]],
      body: json(fields),
      status: 201,
      json: { id: 7 },
    },
  ]);
}

/** What a user holds: equal in both recordings, plain words or digits. */
const HELD = { pin: "4821", passcode: "sunflower", api_key: "orchid", apiKey: "marigold" };

const FIRST: Typed = {
  password: "Tide-Lamp-61",
  hotpot_session_name: "Morning standup",
  passage_session_title: "Chapter one",
  session_spin: "Hill climb",
  otp: "318204",
  otp_code: "774120",
  authToken: "tok-9F3a1C7e5B2d4F6a",
  session_id: "sess-1B2c3D4e5F607182",
  ...HELD,
};
const SECOND: Typed = {
  password: "Reed-Coal-48",
  hotpot_session_name: "Evening review",
  passage_session_title: "Chapter two",
  session_spin: "Sprint intervals",
  otp: "552917",
  otp_code: "190366",
  authToken: "tok-0A9b8C7d6E5f4A3b",
  session_id: "sess-7C6b5A4f3E2d1C0b",
  ...HELD,
};

Deno.test("convert har with two recordings: an ordinary word that contains a credential's short name (hotpot, passage, spin, footprint) is data, while pin, otp, passcode and API keys are still asked", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-two-held-words-" });
  const app = standIn("Pine-Gate-93");
  try {
    const { converted, flow } = await convertHars(dir, [recording(FIRST), recording(SECOND)]);
    assert.match(flow, /hotpot_session_name: \$\{ENV\.[A-Z_]+:-Morning standup\}/, flow);
    assert.match(flow, /passage_session_title: \$\{ENV\.[A-Z_]+:-Chapter one\}/, flow);
    assert.match(flow, /session_spin: \$\{ENV\.[A-Z_]+:-Hill climb\}/, flow);
    assert.match(flow, /x-footprint-token: no-check/i, flow);
    const held = [FIRST, SECOND].flatMap((r) =>
      ["password", "pin", "otp", "otp_code", "passcode", "api_key", "apiKey", "authToken"]
        .concat("session_id").map((k) => r[k])
    );
    for (const value of [...held, "tulip"]) assert.ok(!flow.includes(value), `${value}\n${flow}`);
    const asked = converted.stderr.match(/Set before running: (.*)\./)?.[1].split(", ") ?? [];
    for (const word of ["HOTPOT", "PASSAGE", "SPIN", "FOOTPRINT"]) {
      assert.ok(!asked.some((name) => name.includes(word)), `${word}: ${asked}`);
    }
    const env: Record<string, string> = { BASE_URL: app.origin, LOGIN_PASSWORD: "Pine-Gate-93" };
    for (const name of asked) env[name] ??= "given-by-user-42";
    const wanted = ["LOGIN_PASSWORD", "API_KEY"].concat(
      ["OTP", "OTP_CODE", "PIN", "PASSCODE", "API_KEY", "API_KEY_2"].map((k) =>
        `CREATE_BOOKING_${k}`
      ),
    );
    assert.deepEqual(asked.toSorted(), wanted.toSorted(), converted.stderr);
    const run = await runCli(["run", `${dir}/flow.yaml`], { env });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
