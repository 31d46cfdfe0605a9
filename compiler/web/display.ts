/**
 * Whether a browser page can be shown here, for every command that would
 * serve one (`judge`'s report, `generate`'s interview): not on a Linux or BSD
 * machine without a display (an SSH session, a container, CI), where serving
 * would only wait for nobody. `BROWSER` counts as a display: the person named
 * a browser (a text browser, or one reached through a forwarded port).
 */
export function canShowBrowser(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === "darwin" || platform === "win32") return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY || env.BROWSER);
}
