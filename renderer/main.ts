/** Renderer entry: mounts the Svelte app on the page. */
import { mount } from 'svelte';
import App from './App.svelte';
import './styles/global.css';

const target = document.getElementById('app');
if (!target) throw new Error('#app element missing');
mount(App, { target });
