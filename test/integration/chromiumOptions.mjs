// How both runners start Debian's Chromium: headless, in a throwaway profile, with nothing that reaches
// for the network (these machines are offline; background connections are refused, many at a time).

/** Launch options for `chromium.launchPersistentContext(profile, …)`; XDG dirs point into the profile. */
export function chromiumLaunchOptions(executablePath, profile) {
  return {
    executablePath,
    headless: true,
    env: { ...process.env, XDG_CONFIG_HOME: profile, XDG_CACHE_HOME: profile },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  };
}
