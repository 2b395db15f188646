document.getElementById("app")!.textContent = "Parley";
