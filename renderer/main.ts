/** Renderer entry: picks the host bridge (Electron preload, or the loopback bridge in a browser) and mounts the app. */
import { mount } from 'svelte';
import App from './App.svelte';
import { connectHost } from './bridge/connect.ts';
import './styles/global.css';

const { notifications, link } = connectHost(window);

const target = document.getElementById('app');
if (!target) throw new Error('#app element missing');
mount(App, { target, props: { notifications, link } });
