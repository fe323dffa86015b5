/**
 * The start-up floor: a Deno script that sends one request and exits, to
 * compare with `flowrun run` of a one-request flow. Usage: BASE_URL=… deno run -A bench/one_request.ts
 */
const response = await fetch(`${Deno.env.get("BASE_URL")}/health`);
await response.text();
