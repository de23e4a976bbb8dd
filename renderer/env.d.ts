/// <reference types="svelte" />
/// <reference types="vite/client" />
import type { FleetApi } from '../common/ipc.ts';

declare global {
  interface Window {
    /** Provided by the preload script (Electron) or the loopback bridge (browser mode). */
    fleet?: FleetApi;
  }
}
