// Tests are hermetic: no provider credentials or endpoints leak in from the developer's shell.
for (const name of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_BASE_URL']) {
  delete process.env[name];
}
