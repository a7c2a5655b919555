export function App() {
  return <main>Summit Bank</main>;
}
