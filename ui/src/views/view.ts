// What the shell (main.ts) and the screens agree on.

import type { ErrorBanner } from '../components/error-banner';
import type { Route } from '../lib/route';
import type { AppInfo } from '../lib/types';

/** What every view gets from the shell. */
export interface ViewContext {
  /** The window's error banner. */
  errors: ErrorBanner;
  /** Changes the location hash (the router then updates the views). */
  navigate(hash: string): void;
  /** `app_info`, fetched once by the shell; null when it failed. */
  appInfo: Promise<AppInfo | null>;
}

/** A mounted screen. */
export interface View {
  /** The view's root element. */
  el: HTMLElement;
  /** A new route for the same screen (e.g. changed filters): update in place. */
  update(route: Route): void;
  /** Unsubscribes and stops timers; the shell then drops `el`. */
  destroy(): void;
}
