// Vite builds the static UI that src-tauri embeds (build.frontendDist = ../ui/dist).
// `base: './'` keeps asset URLs relative, so the same dist works under Tauri's
// custom protocol and under `vite preview`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  base: './',
  clearScreen: false,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
  },
});
