import { useRef, type ReactNode } from 'react';

/**
 * A button that opens the browser's file picker and hands the chosen file to `onFile`; the
 * hidden input is cleared after each pick, so the same file can be chosen again.
 */
export function FileButton(props: {
  readonly testId: string;
  /** Test id of the hidden input (where tests set the file). */
  readonly inputTestId: string;
  readonly accept: string;
  readonly onFile: (file: File | undefined) => void | Promise<void>;
  readonly disabled?: boolean;
  readonly title?: string;
  readonly children: ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" data-testid={props.testId} disabled={props.disabled} title={props.title} onClick={() => input.current?.click()}>
        {props.children}
      </button>
      <input
        ref={input}
        type="file"
        accept={props.accept}
        hidden
        data-testid={props.inputTestId}
        onChange={(e) => {
          void props.onFile(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
    </>
  );
}
