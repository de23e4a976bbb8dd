/** Renderer entry: picks the host bridge (Electron preload, or the loopback bridge in a browser) and mounts the app. */
import { mount } from 'svelte';
import App from './App.svelte';
import { createWebFleet } from './bridge/web-fleet.ts';
import './styles/global.css';

// In Electron the preload has already exposed `window.fleet`; served over http it is the web bridge.
if (!window.fleet && location.protocol === 'http:') window.fleet = createWebFleet();

const target = document.getElementById('app');
if (!target) throw new Error('#app element missing');
mount(App, { target });
