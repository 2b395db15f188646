// Markdown files are bundled as text (wrangler `rules` in production, a Vite plugin in tests).
declare module "*.md" {
  const text: string;
  export default text;
}
