import { describe, expect, it } from "vitest";
import { allAnswered, answerSummary, readQuestions } from "../../../../src/interactions/kinds/question-view";
import { QUESTION_REQUEST } from "../../web/events";

const questions = readQuestions(QUESTION_REQUEST);

describe("question answers", () => {
  it("needs an answer for every question, and text for an Other answer", () => {
    expect(allAnswered(questions, { "Which colour?": "Red" })).toBe(false);
    expect(allAnswered(questions, { "Which colour?": "Red", "Which toppings?": [] })).toBe(false);
    expect(allAnswered(questions, { "Which colour?": "Red", "Which toppings?": ["Olives", " "] })).toBe(
      false,
    );
    expect(allAnswered(questions, { "Which colour?": "Teal", "Which toppings?": ["Olives"] })).toBe(true);
  });

  it("summarises answers keyed by question text or by index", () => {
    expect(
      answerSummary(questions, { answers: { "Which colour?": "Red", "1": ["Cheese", "Olives"] } }),
    ).toEqual([
      { header: "Colour", answer: "Red" },
      { header: "Toppings", answer: "Cheese, Olives" },
    ]);
  });

  it("reads a malformed request as no questions instead of failing", () => {
    expect(readQuestions(null)).toEqual([]);
    expect(readQuestions({ questions: "nope" })).toEqual([]);
  });
});
