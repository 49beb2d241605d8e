// Vite's ?raw imports: fixture files as text.
declare module "*?raw" {
  const content: string;
  export default content;
}
