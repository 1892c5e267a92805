/** The short commit the page was built from (`git rev-parse --short HEAD` at build time; vite.config.ts). */
declare const __LAB_COMMIT__: string;
