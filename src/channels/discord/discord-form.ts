// A card as a Discord modal, when its kind's chat view says it fits one of five text inputs (a
// form of strings and numbers, src/interactions/kinds/form-view.ts): the modal Discord shows and the
// texts read back from its submission.
import type { ModalField } from "../../interactions/kinds/chat-view";
import { inert } from "../../protocol/text/inert-text";
import { FILL_IN } from "../card-choices";
import { short } from "../fit-text";
/** Text inputs a Discord modal holds. */
export const DISCORD_MODAL_INPUTS = 5;
const MAX_LABEL = 45;
const MAX_PLACEHOLDER = 100;
const MAX_TITLE = 45;
const MAX_INPUT_CHARS = 4_000;

const text = (value: unknown): string | null => (typeof value === "string" && value ? value : null);

/** Discord's modal response for the form; each input's custom_id is its place in the form. */
export function formModal(ref: number, request: unknown, inputs: ModalField[]) {
  const message = text((request as { message?: unknown } | null)?.message) ?? "Fill in the form";
  return {
    custom_id: `${ref}.${FILL_IN}`,
    // The form's words are its server's: shown inert, as every card's are.
    title: short(inert(message), MAX_TITLE),
    components: inputs.map((input, index) => ({
      type: 1,
      components: [
        {
          type: 4,
          custom_id: `i${index}`,
          style: input.type === "string" && (input.maxLength ?? MAX_INPUT_CHARS) > 100 ? 2 : 1,
          label: short(inert(input.label), MAX_LABEL),
          required: input.required,
          max_length: Math.min(input.maxLength ?? MAX_INPUT_CHARS, MAX_INPUT_CHARS),
          ...(input.minLength ? { min_length: Math.min(input.minLength, MAX_INPUT_CHARS) } : {}),
          ...(input.description ? { placeholder: short(inert(input.description), MAX_PLACEHOLDER) } : {}),
          ...(input.value !== null ? { value: short(input.value, MAX_INPUT_CHARS) } : {}),
        },
      ],
    })),
  };
}

/** The submitted texts by field name (an input's custom_id is its place in the modal). */
export function modalTexts(inputs: ModalField[], textOf: (customId: string) => string | null) {
  return Object.fromEntries(inputs.map((input, index) => [input.name, textOf(`i${index}`) ?? ""]));
}
