// A file by drag and drop or the file picker: the batch panel's CSV and the Data page's pack share this one.
import { type ReactNode, useState } from "react";

type Props = {
  /** The file input's accessible name (a contract: the browser tests find it by this). */
  name: string;
  /** The picker's visible caption. */
  caption: string;
  accept: string;
  disabled: boolean;
  onFile: (file: File) => void;
  /** What stands above the picker (the drop hint). */
  intro?: ReactNode;
  /** What stands below it (the chosen file, the limits). */
  children?: ReactNode;
};

export function DropZone({ name, caption, accept, disabled, onFile, intro, children }: Props) {
  const [dragging, setDragging] = useState(false);
  const take = (file: File | undefined) => {
    if (file) onFile(file);
  };
  return (
    // Dropping is a shortcut; the file input inside is the accessible way in.
    // biome-ignore lint/a11y/noStaticElementInteractions: drop target only; the labelled input is the control
    <div
      className={`dropzone${dragging ? " dragging" : ""}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        take(e.dataTransfer.files[0]);
      }}
    >
      {intro}
      <label className="file">
        <span>{caption}</span>
        <input
          type="file"
          accept={accept}
          aria-label={name}
          disabled={disabled}
          onChange={(e) => {
            take(e.target.files?.[0]);
            e.target.value = "";
          }}
        />
      </label>
      {children}
    </div>
  );
}
