/// <reference types="@electron-forge/plugin-vite/forge-vite-env" />
