// Vite serves any file as text with `?raw`; tests use it to compare docs with the code they quote.
declare module "*?raw" {
  const text: string;
  export default text;
}
