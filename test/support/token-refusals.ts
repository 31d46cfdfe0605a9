/**
 * The requests a token-guarded local server must refuse with a bare 403: no
 * token, an empty one, a wrong one of the same length, near misses, and the
 * token in the wrong place. `paths` are the server's own routes.
 */
export function requestsWithoutTheToken(token: string, paths: readonly string[]): string[] {
  const sameLengthWrong = (token[0] === "A" ? "B" : "A") + token.slice(1);
  return [
    ...paths,
    "/?token=",
    `/?token=${sameLengthWrong}`,
    ...paths.filter((p) => p !== "/").map((p) => `${p}?token=${sameLengthWrong}`),
    `/?token=${token}x`,
    `/?token=${token.slice(0, -1)}`,
    `/?Token=${token}`,
    `/${token}`,
  ];
}
