"""Account forms: they check the shape of the input; the account services decide."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _


class RegisterForm(forms.Form):
    username = forms.CharField(
        label=_("Username"),
        max_length=30,
        help_text=_("Up to 30 letters, digits and @ . + - _"),
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )
    email = forms.EmailField(
        label=_("Email (optional)"), required=False, widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )
    password1 = forms.CharField(
        label=_("Password"),
        max_length=256,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=_("At least 8 characters, not too common, not only digits."),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        max_length=256,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("password1") and data.get("password2") and data["password1"] != data["password2"]:
            self.add_error("password2", _("The two passwords differ."))
        return data


class SignInForm(forms.Form):
    username = forms.CharField(
        label=_("Username"),
        max_length=150,
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )
    password = forms.CharField(
        label=_("Password"),
        max_length=256,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )


class PasswordChangeForm(forms.Form):
    old_password = forms.CharField(
        label=_("Current password"),
        max_length=256,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    new_password1 = forms.CharField(
        label=_("New password"),
        max_length=256,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    new_password2 = forms.CharField(
        label=_("New password again"),
        max_length=256,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if (
            data.get("new_password1")
            and data.get("new_password2")
            and data["new_password1"] != data["new_password2"]
        ):
            self.add_error("new_password2", _("The two passwords differ."))
        return data


class EmailForm(forms.Form):
    email = forms.EmailField(
        label=_("Email address"), max_length=254, widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )
