/**
 * Small inline SVG icons (currentColor): they render without any emoji font, which Debian's
 * Chromium does not have (an emoji there is an empty box).
 */
export function LessonsIcon() {
  return (
    <svg className="icon" viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true" focusable="false">
      <path d="M12 4 1 9l11 5 9-4.1V16h2V9L12 4Z" fill="currentColor" />
      <path d="M5 12.2V16c0 1.7 3.1 3 7 3s7-1.3 7-3v-3.8l-7 3.2-7-3.2Z" fill="currentColor" />
    </svg>
  );
}
