// Vite client types: ?raw imports and import.meta.glob for fixture files.
/// <reference types="vite/client" />
