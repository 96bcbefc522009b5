-- Scripted check that Neovim's built-in LSP client gets `retracelint server`'s diagnostics:
--   nvim --headless -u NONE examples/trainer/decode.py -c "luafile scripts/nvim_server_check.lua"
-- prints each diagnostic as path:line:col: CODE message (run from the checkout, with .venv made).
-- start_client + buf_attach_client is what vim.lsp.start does on Neovim 0.8+, and also runs on 0.7.
local root = vim.fn.getcwd()
local client = vim.lsp.start_client({
  name = "retracelint",
  cmd = { root .. "/.venv/bin/retracelint", "server" },
  root_dir = root,
})
vim.lsp.buf_attach_client(0, client)
local ok = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 100)
for _, d in ipairs(vim.diagnostic.get(0)) do
  print(string.format("%s:%d:%d: %s %s", vim.fn.expand("%"), d.lnum + 1, d.col + 1, d.code, d.message))
end
if not ok then print("no diagnostics") end
vim.lsp.stop_client(client)
vim.cmd("qa!")
