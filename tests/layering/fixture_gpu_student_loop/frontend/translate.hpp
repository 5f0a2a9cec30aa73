// Fixture for the layering test: the translation, below gpu/ and student/.
#pragma once
