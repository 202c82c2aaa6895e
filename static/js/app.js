// Small progressive enhancements; every page works without this file.
document.addEventListener("click", (event) => {
  const printButton = event.target.closest("[data-print]");
  if (printButton) {
    event.preventDefault();
    window.print();
  }
});
