/**
 * What every page behavior-judge serves on 127.0.0.1 shares: a one-time
 * token compared in constant time, a Host check against DNS rebinding, and
 * strict headers. Used by the live report and the generate interview.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const SECURITY_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Cache-Control": "no-store",
} as const;

/** Listens on 127.0.0.1 only (port 0: one the OS picks) and resolves with the port. */
export async function listenOnLoopback(server: Server, port = 0): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** 256 random bits, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

export function requestUrl(req: IncomingMessage): URL | undefined {
  try {
    return new URL(req.url ?? "/", "http://127.0.0.1");
  } catch {
    return undefined;
  }
}

/** Only our own origin: a DNS-rebinding page would arrive with its own host name. */
export function hostAllowed(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/** Constant-time comparison; lengths are compared first because timingSafeEqual needs equal lengths (and the length is no secret). */
export function tokenMatches(candidate: string | null, expected: Buffer): boolean {
  if (candidate === null) return false;
  const given = Buffer.from(candidate, "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The request's URL when it came to our own host with the right token, else
 * undefined: the one gate in front of every route.
 */
export function authorizedUrl(req: IncomingMessage, port: number, expectedToken: Buffer): URL | undefined {
  const url = requestUrl(req);
  if (url === undefined || !hostAllowed(req.headers.host, port)) return undefined;
  return tokenMatches(url.searchParams.get("token"), expectedToken) ? url : undefined;
}

/** An empty refusal: nothing about the server is told to a request without the token. */
export function refuse(res: ServerResponse, status: number): void {
  res.writeHead(status, { ...SECURITY_HEADERS, "Content-Length": "0" });
  res.end();
}

/** An HTML page under its Content-Security-Policy, which also forbids framing. */
export function sendPage(res: ServerResponse, headOnly: boolean, html: string, contentSecurityPolicy: string): void {
  const body = Buffer.from(html, "utf8");
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    "Content-Type": "text/html; charset=utf-8",
    "Content-Length": String(body.length),
    "Content-Security-Policy": `${contentSecurityPolicy}; frame-ancestors 'none'`,
  });
  res.end(headOnly ? undefined : body);
}
