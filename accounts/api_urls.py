from django.urls import path

from . import api

urlpatterns = [
    path("register/", api.RegisterView.as_view(), name="api-register"),
    path("token/", api.TokenView.as_view(), name="api-token"),
    path("login/", api.LoginView.as_view(), name="api-login"),
    path("logout/", api.LogoutView.as_view(), name="api-logout"),
    path("password/", api.PasswordView.as_view(), name="api-password"),
]
