export * from "./booksSettings";
